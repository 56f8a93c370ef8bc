import CarrelJSON

extension ProjectFile {
    /// project.json's bytes kept in parts, so the next version renders only
    /// the Trash records that changed and copies everything else. Rendering
    /// the whole file was most of the CPU time of a delete once Trash held a
    /// few hundred items.
    ///
    /// The file is `head`, the Trash object's members, then `tail`. The
    /// members sit in `block` exactly as in the file, joined by
    /// `separator`, so they are copied in one piece.
    struct Rendering {
        /// Trash record names in the writer's (sorted) order.
        private var names: [String] = []
        /// Where each record's `"name": {…}` sits in `block`.
        private var spans: [Range<Int>] = []
        private var block: [UInt8] = []
        /// The file up to the Trash object's opening brace, and from just
        /// after its closing one.
        private var head: [UInt8] = []
        private var tail: [UInt8] = []
        var size = 0

        /// What changed in "trash" since the version a rendering is of.
        struct Changes {
            var set: [(name: String, value: JSONValue)] = []
            var removed: [String] = []
        }

        /// `json` as pretty JSON with a final newline: byte for byte what
        /// `JSONValue.encoded(pretty:)` writes. With `previous` (a rendering
        /// of the version `trashChanges` is counted from), only changed
        /// records are rendered; it is consumed, and changed in place when
        /// the caller held the only reference. `onlyTrashChanged`: every key
        /// but "trash" is as in the version `previous` renders.
        static func render(
            _ json: [String: JSONValue], reusing previous: consuming Rendering?, trashChanges: Changes?,
            onlyTrashChanged: Bool = false
        ) -> (bytes: [UInt8], rendering: Rendering) {
            guard let trash = json["trash"]?.objectValue else {
                var bytes = JSONValue.object(json).encoded(pretty: true)
                bytes.append(0x0A)
                return (bytes, Rendering(size: bytes.count))
            }
            let reusable = previous != nil && trashChanges != nil
            var rendering = (consume previous) ?? Rendering()
            if reusable, let trashChanges {
                rendering.apply(trashChanges)
                // The changes must account for every difference; tests stop
                // here, and a release build renders everything instead.
                assert(rendering.names.count == trash.count, "Trash changes missed a record")
            }
            if !reusable || rendering.names.count != trash.count {
                rendering.setRecords(trash.sorted { $0.key < $1.key }.map { ($0.key, member($0.key, $0.value)) })
            }
            if !onlyTrashChanged || rendering.head.isEmpty {
                (rendering.head, rendering.tail) = headAndTail(json)
            }
            var bytes: [UInt8] = []
            bytes.reserveCapacity(rendering.head.count + rendering.block.count + rendering.tail.count + 8)
            bytes.append(contentsOf: rendering.head)
            if rendering.names.isEmpty {
                bytes.append(UInt8(ascii: "}"))
            } else {
                bytes.append(contentsOf: Self.firstIndent)
                bytes.append(contentsOf: rendering.block)
                bytes.append(contentsOf: Self.closingLine)
            }
            bytes.append(contentsOf: rendering.tail)
            rendering.size = bytes.count
            assert(bytes == JSONValue.object(json).encoded(pretty: true) + [0x0A], "a rendering differs from the JSON")
            return (bytes, rendering)
        }

        /// Inside the top-level object, in its "trash" object: records are
        /// written two levels deep, one per line.
        private static let recordDepth = 2
        private static let firstIndent = Array("\n    ".utf8)
        private static let separator = Array(",\n    ".utf8)
        private static let closingLine = Array("\n  }".utf8)

        private static func member(_ name: String, _ value: JSONValue) -> [UInt8] {
            var w = JSONWriter(prettyFragmentAtDepth: recordDepth)
            w.key(name)
            w.value(value)
            return w.bytes
        }

        /// Every key but "trash", rendered around an empty Trash object.
        private static func headAndTail(_ json: [String: JSONValue]) -> (head: [UInt8], tail: [UInt8]) {
            var w = JSONWriter(pretty: true, capacity: 1024)
            var opened = 0
            w.beginObject()
            for (key, value) in json.sorted(by: { $0.key < $1.key }) {
                w.key(key)
                guard key == "trash" else { w.value(value); continue }
                w.beginObject()
                opened = w.bytes.count
                w.endObject()
            }
            w.endObject()
            w.bytes.append(0x0A)
            return (Array(w.bytes[..<opened]), Array(w.bytes[(opened + 1)...]))
        }

        private mutating func setRecords(_ records: [(name: String, member: [UInt8])]) {
            names = records.map(\.name)
            spans = []
            block = []
            for (i, record) in records.enumerated() {
                if i > 0 { block.append(contentsOf: Self.separator) }
                spans.append(block.count..<(block.count + record.member.count))
                block.append(contentsOf: record.member)
            }
        }

        private mutating func apply(_ changes: Changes) {
            for name in changes.removed {
                let i = position(of: name)
                if i < names.count && names[i] == name { remove(at: i) }
            }
            for (name, value) in changes.set {
                let i = position(of: name)
                let rendered = Self.member(name, value)
                if i < names.count && names[i] == name {
                    replace(at: i, with: rendered)
                } else {
                    insert(name, rendered, at: i)
                }
            }
        }

        private mutating func remove(at i: Int) {
            // The record and one separator beside it.
            let cut: Range<Int>
            if names.count == 1 {
                cut = 0..<block.count
            } else if i == 0 {
                cut = 0..<spans[1].lowerBound
            } else {
                cut = spans[i - 1].upperBound..<spans[i].upperBound
            }
            block.removeSubrange(cut)
            names.remove(at: i)
            spans.remove(at: i)
            shiftSpans(from: i, by: -cut.count)
        }

        private mutating func replace(at i: Int, with member: [UInt8]) {
            let old = spans[i]
            block.replaceSubrange(old, with: member)
            spans[i] = old.lowerBound..<(old.lowerBound + member.count)
            shiftSpans(from: i + 1, by: member.count - old.count)
        }

        private mutating func insert(_ name: String, _ member: [UInt8], at i: Int) {
            let start: Int
            if names.isEmpty {
                start = 0
                block = member
            } else if i == names.count {
                start = block.count + Self.separator.count
                block.append(contentsOf: Self.separator)
                block.append(contentsOf: member)
            } else {
                start = spans[i].lowerBound
                block.insert(contentsOf: member + Self.separator, at: start)
            }
            names.insert(name, at: i)
            spans.insert(start..<(start + member.count), at: i)
            if i + 1 < spans.count { shiftSpans(from: i + 1, by: member.count + Self.separator.count) }
        }

        private mutating func shiftSpans(from i: Int, by delta: Int) {
            guard delta != 0, i < spans.count else { return }
            for k in i..<spans.count { spans[k] = (spans[k].lowerBound + delta)..<(spans[k].upperBound + delta) }
        }

        /// The first index whose name is not before `name`, in the writer's order.
        private func position(of name: String) -> Int {
            var low = 0
            var high = names.count
            while low < high {
                let mid = (low + high) / 2
                if names[mid] < name { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }
}

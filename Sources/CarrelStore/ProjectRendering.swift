import CarrelJSON

extension ProjectFile {
    /// project.json's bytes with its Trash records kept rendered, so the next
    /// version renders only the records that changed. Rendering the whole
    /// file was most of the CPU time of a delete once Trash held a few
    /// hundred items; now a delete renders one record and copies the rest.
    struct Rendering {
        /// The members of "trash" in the writer's (sorted) order: each name
        /// with the bytes of `"name": {…}` as they sit in the file.
        var records: [(name: String, member: [UInt8])] = []
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
        /// the caller held the only reference.
        static func render(_ json: [String: JSONValue], reusing previous: consuming Rendering?, trashChanges: Changes?)
            -> (bytes: [UInt8], rendering: Rendering)
        {
            guard let trash = json["trash"]?.objectValue else {
                var bytes = JSONValue.object(json).encoded(pretty: true)
                bytes.append(0x0A)
                return (bytes, Rendering(size: bytes.count))
            }
            let reusable = previous != nil && trashChanges != nil
            var rendering = (consume previous) ?? Rendering()
            let previousSize = rendering.size > 0 ? rendering.size : 4096
            if reusable, let trashChanges {
                rendering.apply(trashChanges)
                // The changes must account for every difference; tests stop
                // here, and a release build renders everything instead.
                assert(rendering.records.count == trash.count, "Trash changes missed a record")
            }
            if !reusable || rendering.records.count != trash.count {
                rendering = Rendering(records: trash.sorted { $0.key < $1.key }.map { ($0.key, member($0.key, $0.value)) })
            }
            var w = JSONWriter(pretty: true, capacity: previousSize + 512)
            w.beginObject()
            for (key, value) in json.sorted(by: { $0.key < $1.key }) {
                w.key(key)
                guard key == "trash" else { w.value(value); continue }
                w.beginObject()
                for record in rendering.records { w.member(record.member) }
                w.endObject()
            }
            w.endObject()
            w.bytes.append(0x0A)
            rendering.size = w.bytes.count
            return (w.bytes, rendering)
        }

        /// Trash sits inside the top-level object.
        private static let recordDepth = 2

        private static func member(_ name: String, _ value: JSONValue) -> [UInt8] {
            var w = JSONWriter(prettyFragmentAtDepth: recordDepth)
            w.key(name)
            w.value(value)
            return w.bytes
        }

        private mutating func apply(_ changes: Changes) {
            for name in changes.removed {
                let i = position(of: name)
                if i < records.count && records[i].name == name { records.remove(at: i) }
            }
            for (name, value) in changes.set {
                let i = position(of: name)
                let rendered = Self.member(name, value)
                if i < records.count && records[i].name == name {
                    records[i].member = rendered
                } else {
                    records.insert((name, rendered), at: i)
                }
            }
        }

        /// The first index whose name is not before `name`, in the writer's order.
        private func position(of name: String) -> Int {
            var low = 0, high = records.count
            while low < high {
                let mid = (low + high) / 2
                if records[mid].name < name { low = mid + 1 } else { high = mid }
            }
            return low
        }
    }
}

import Foundation
import Glibc

/// What must hold after every step.
extension PropertyRun {
    func check(_ expect: Expect) {
        checkAlive()
        let now = Disk.fingerprint(box.outside)
        if now != outsidePrint {
            let changed = Set(now.keys).union(outsidePrint.keys).filter { now[$0] != outsidePrint[$0] }.sorted()
            fail(.outside, "outside the library, \(changed.joined(separator: ", ")) changed")
        }
        checkWriterFiles(expect)
        for (rel, id) in unreadable.sorted(by: { $0.key < $1.key }) where Disk.identity(box.path(rel)) != id {
            fail(.unreadable, "\(rel), which Carrel cannot read, was replaced or removed")
        }
        if let restore = expect.restore { checkRestored(restore) }
    }

    /// Where every writer's file is now. One that is nowhere was destroyed,
    /// which only the step's own Trash deletions may do.
    func checkWriterFiles(_ expect: Expect) {
        var found: [String: String] = [:]
        for (base, label) in [(box.lib, ""), (box.systemTrash, "system trash: ")] {
            // Snapshots and a submission's copies are Carrel's copies of a text, not the writer's file.
            for n in Disk.walk(base) where n.isFile && n.size > 0 && n.size <= 4096 {
                if n.rel.contains("/.carrel/snapshots/") || n.rel.contains("/.carrel/submissions/") { continue }
                guard let bytes = Disk.read(base + "/" + n.rel, limit: 4096), Ledger.isWriterContent(bytes) else {
                    continue
                }
                found[String(decoding: bytes, as: UTF8.self)] = label + n.rel
            }
        }
        for (content, last) in ledger.all.sorted(by: { $0.value < $1.value }) {
            if let place = found[content] {
                ledger.seen(content, at: place)
            } else if expect.mayVanish.contains(content) {
                ledger.forget(content)
            } else {
                fail(.destroyed, "the writer's file #\(ledger.number(content)), last seen at \(last), was destroyed")
            }
        }
    }

    /// A restore that answered OK took the item out of the Trash, to the
    /// folder its record names.
    func checkRestored(_ r: RestoreExpect) {
        for content in r.contents {
            guard let place = ledger.all[content] else { continue }
            if place.hasPrefix(r.project + "/Trash/") {
                fail(.leftInTrash, "restoring \(r.item) answered OK but left it in the Trash, at \(place)")
                return
            }
        }
        let top = r.contents.compactMap { ledger.all[$0] }.map { $0.split(separator: "/").map(String.init) }
        guard !r.origins.isEmpty, r.contents.count == 1, let landed = top.first, landed.count >= 2 + r.innerDepth
        else { return }
        // The folder the item itself went to: above the content's own folders inside the item.
        let folder = landed.dropLast(1 + r.innerDepth).joined(separator: "/")
        if !r.origins.contains(folder) {
            fail(
                .misplaced,
                "restoring \(r.item) put it in \(folder) though its record names "
                    + r.origins.sorted().joined(separator: " or "))
        }
    }
}

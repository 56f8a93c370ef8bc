import CarrelClient
import CarrelJSON
import CarrelProtocol
import CarrelRandom
import Foundation
import Glibc

/// Proves the checks can fail: each fault is planted on disk after a few
/// kills, and the checks must name it.
func selfTest(_ options: Options) -> Int32 {
    let faults: [(String, String, (Torture) -> Void)] = [
        (
            "lose a file", "is lost",
            { t in
                let f = t.someContentFile()
                unlink(f)
            }
        ),
        (
            "duplicate a file under a hidden name", "duplicated",
            { t in
                let f = t.someContentFile()
                _ = Disk.write((f as NSString).deletingLastPathComponent + "/.copy", Disk.read(f)!)
            }
        ),
        (
            "copy a file once more than asked", "duplicated",
            { t in
                let f = t.someContentFile()
                t.copyAllowance[t.content(of: Disk.read(f)!)] = 1
                _ = Disk.write(f + ".copy1.md", Disk.read(f)!)
                _ = Disk.write(f + ".copy2.md", Disk.read(f)!)
            }
        ),
        (
            "leave a half-made copy", "half-made copy",
            { t in
                mkdir(t.lib + "/Poems/Draft/.carrel-copy-1-2-3", 0o755)
                _ = Disk.write(t.lib + "/Poems/Draft/.carrel-copy-1-2-3/x.md", Array("torture:".utf8))
            }
        ),
        (
            "leave a compile's temporary", "compile's temporary",
            { t in
                mkdir(t.lib + "/Poems/Compiled", 0o755)
                _ = Disk.write(t.lib + "/Poems/Compiled/.carrel-compile-1-2-3-out", Array("---\ntitle: \"".utf8))
            }
        ),
        (
            "truncate a file", "never wrote",
            { t in
                let f = t.someContentFile()
                // Within the content line: a cut among the links after it is
                // another fault (a torn link line), named in other words.
                let bytes = Disk.read(f)!
                truncate(f, off_t((bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count) / 2))
            }
        ),
        (
            "leave a visible temporary file", "unexpected visible name",
            { t in
                _ = Disk.write(t.lib + "/Poems/Draft/project.json.tmp", [])
            }
        ),
        (
            "point a Trash record at nothing", "points at nothing",
            { t in
                mkdir(t.lib + "/Blank/.carrel/trash", 0o755)
                let record: JSONValue = ["name": "ghost.md", "from": "ghost.md", "deleted": 1]
                _ = Disk.write(t.lib + "/Blank/.carrel/trash/1-ghost.json", record.encoded())
            }
        ),
        (
            "remove a template folder", "is missing",
            { t in
                let d = t.lib + "/Poems/Magazines"
                for n in Disk.walk(d, includeHidden: true) where !n.isDir {
                    rename(d + "/" + n.rel, t.lib + "/Poems/Draft/" + n.name)
                }
                for n in Disk.walk(d, includeHidden: true).sorted(by: { $0.rel.count > $1.rel.count }) {
                    rmdir(d + "/" + n.rel)
                }
                rmdir(d)
            }
        ),
        (
            "corrupt project.json", "does not parse",
            { t in
                _ = Disk.write(t.lib + "/Novel/.carrel/project.json", Array("{\"type\":".utf8))
            }
        ),
        (
            "leave a conflict copy of project.json", "conflict copy of Carrel's own files is left",
            { t in
                _ = Disk.write(
                    t.lib + "/Novel/.carrel/project" + Torture.copySuffix,
                    Disk.read(t.lib + "/Novel/.carrel/project.json")!)
            }
        ),
        (
            "tear an order file", "is torn",
            { t in
                _ = Disk.write(t.lib + "/Poems/Draft/.carrel-order", Array("f1.md\nf2".utf8))
            }
        ),
        (
            "leave a temporary order file", "temporary order file",
            { t in
                _ = Disk.write(t.lib + "/Poems/Draft/.carrel-order.tmp-1-2-3", Array("f1.md\n".utf8))
            }
        ),
        (
            "leave a link pointing where its content is not", "does not resolve",
            { t in
                let rel = t.newName("s") + ".md"
                // A run may have sent Notes to the system trash.
                _ = Disk.makeFolders(t.lib + "/Notes")
                // A target of its own, which no command ever took out of view.
                let d = t.newContent()
                _ = Disk.write(t.lib + "/Notes/lt.md", Array(d.utf8))
                let id = Torture.contentID(d)!
                let c = t.newContent()
                _ = Disk.write(t.lib + "/Notes/" + rel, Array((c + "[#\(id)](nowhere/\(rel))\n").utf8))
            }
        ),
        (
            "rewrite one file's links of a move and not another's", "half done",
            { t in
                // A content of its own, which no command ever took out of view.
                _ = Disk.makeFolders(t.lib + "/Notes")
                let d = t.newContent()
                _ = Disk.write(t.lib + "/Notes/ht.md", Array(d.utf8))
                let id = Torture.contentID(d)!
                let a = t.newContent()
                let b = t.newContent()
                _ = Disk.write(t.lib + "/Notes/ha.md", Array((a + "[#\(id)](ht.md)\n").utf8))
                _ = Disk.write(t.lib + "/Notes/hb.md", Array((b + "[#\(id)](ht.md)\n").utf8))
                t.interruptedLinks = t.linkStates()
                // The target moves; one file follows it, the other keeps the old path.
                _ = rename(t.lib + "/Notes/ht.md", t.lib + "/Notes/moved.md")
                _ = Disk.write(t.lib + "/Notes/ha.md", Array((a + "[#\(id)](moved.md)\n").utf8))
            }
        ),
        (
            "leave a snapshot under a path whose file moved", "where its file is not",
            { t in
                let file = t.someContentFile(inProject: true)
                let rel = String(file.dropFirst(t.lib.count + 1))
                let (project, below) = t.splitProject(rel)!
                let folder = t.lib + "/" + project + "/" + Torture.snapshotsFolder + "/" + below + ".moved"
                _ = Disk.makeFolders(folder)
                _ = Disk.write(folder + "/2026-11-28T01-00-00.000Z dev-1 1w.md", Disk.read(file)!)
            }
        ),
        (
            "leave a snapshot's temporary", "snapshot's temporary",
            { t in
                let folder = t.lib + "/Poems/" + Torture.snapshotsFolder + "/Draft/x.md"
                _ = Disk.makeFolders(folder)
                // As a kill leaves it, of a process that is gone, but with no note naming it.
                _ = Disk.write(
                    folder + "/" + Torture.snapshotTemporaryPrefix + Torture.deadPid + "-2", Array("torture:".utf8))
            }
        ),
        (
            "leave a snapshot write's note", "snapshot write's note",
            { t in
                _ = Disk.makeFolders(t.snapshotWriteNotes)
                let note: JSONValue = [
                    "folder": .string(t.lib + "/Poems/" + Torture.snapshotsFolder + "/Draft/x.md"),
                    "temporary": .string(Torture.snapshotTemporaryPrefix + Torture.deadPid + "-2"),
                ]
                _ = Disk.write(t.snapshotWriteNotes + "/" + Torture.deadPid + "-1.json", note.encoded())
            }
        ),
        (
            "tear a snapshot", "holds text the harness never wrote",
            { t in
                let file = t.someContentFile(inProject: true)
                let rel = String(file.dropFirst(t.lib.count + 1))
                let (project, below) = t.splitProject(rel)!
                let folder = t.lib + "/" + project + "/" + Torture.snapshotsFolder + "/" + below
                _ = Disk.makeFolders(folder)
                let bytes = Disk.read(file)!
                _ = Disk.write(folder + "/2026-11-28T01-00-00.000Z dev-1 1w.md", Array(bytes.prefix(bytes.count / 2)))
            }
        ),
        (
            "bring back a deleted content", "is back",
            { t in
                let f = t.someContentFile()
                t.contents[t.content(of: Disk.read(f)!)] = .gone
            }
        ),
    ]
    // With two servers only a link neither of whose ends moved is held to
    // resolve (`Torture+LinksOfTwo.swift`): one rewritten wrongly must be caught.
    let twoServerFaults: [(String, String, (Torture) -> Void)] = [
        (
            "with two servers, break a link neither of whose ends moved", "neither of its ends moved",
            { t in
                // The check's starting point is now, so nothing counts as moved since.
                let now = t.linkStates()
                t.linksAtCheck = now
                t.movedSinceCheck = []
                let key = now.links.first { key, state in
                    state.resolves && !t.linksOutOfView.contains(key.source)
                        && !t.linksOutOfView.contains(key.target) && !t.linksLeftDangling.contains(key)
                }!.key
                let path = t.lib + "/" + now.inView[key.source]![0]
                let split = Torture.split(String(decoding: Disk.read(path)!, as: UTF8.self))!
                let links = split.links.map { "[#\($0.target)](\($0.target == key.target ? "nowhere.md" : $0.path))\n" }
                _ = Disk.write(path, Array((split.content + links.joined()).utf8))
            }
        )
    ]
    var passed = 0
    var failed = 0
    let all = faults.map { ($0.0, $0.1, 1, $0.2) } + twoServerFaults.map { ($0.0, $0.1, 2, $0.2) }
    for (i, (what, expected, servers, plant)) in all.enumerated() {
        var o = options
        o.seed = options.seed &+ UInt64(i)
        o.servers = servers
        let t = Torture(o)
        t.protectSeedProjects = true
        do { try t.setUp() } catch { say("self-test: set-up failed: \(error)"); return 1 }
        for _ in 0..<3 { t.runCycle() }
        t.repair()
        guard t.violations.isEmpty else {
            say("self-test: clean cycles failed (seed \(o.seed), library kept at \(t.lib)): \(t.violations)")
            return 1
        }
        // An undo or redo the last kill cut short counts the contents whose
        // places changed since it was sent: settled now, before the plant
        // adds contents of its own that must not count as moved.
        t.noteUndoneMoves()
        plant(t)
        t.checkRepairedLibrary(nil)
        t.checkContents(phase: "self-test", afterRestart: true)
        t.checkSyncCopiesMerged([], phase: "self-test")
        t.checkLinks(phase: "self-test")
        if t.violations.contains(where: { $0.contains(expected) }) {
            passed += 1
            say("self-test: \(what): caught (\(t.violations.first { $0.contains(expected) }!))")
        } else {
            failed += 1
            say("self-test: \(what): NOT caught; violations: \(t.violations)")
        }
        try? FileManager.default.removeItem(atPath: t.root)
    }
    say("self-test: \(passed) planted faults caught, \(failed) missed")
    say("\(passed) passed, \(failed) failed")
    return failed == 0 ? 0 : 1
}

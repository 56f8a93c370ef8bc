import CarrelModel
import CarrelStore

/// The texts of the files a move's edits were last made on, each with its
/// links parsed and resolved, kept by the file's status (device, inode,
/// size, mtime and ctime): an editor asks `workspace/willRenameFiles`
/// again for each rename the writer tries, and the same linking files are
/// then checked with one `statx` each, not opened, read and parsed again.
struct LinkTexts {
    struct Kept {
        let status: FileStatus
        let text: [UInt8]
        let links: [Link]
        /// Each link's target from the path it is kept under (`LinkRewrite.resolvedTargets`).
        let resolved: [[String]?]
    }

    /// By the library path the file's links were resolved from.
    private(set) var kept: [[String]: Kept] = [:]
    private var bytes = 0
    /// Files read rather than taken as kept, for tests.
    private(set) var reads = 0
    /// A text is kept only when its file's ctime is this much older than
    /// the moment before its status was taken. Timestamps move by the
    /// filesystem's tick (a jiffy on ext4, two seconds on FAT), so a write
    /// within the tick of the read could leave the status as it was; past
    /// this, any later write moves the ctime.
    var settledNs: Int64 = 3_000_000_000
    /// Past this many bytes of text, every kept one is let go of.
    static let byteLimit = 4 << 20

    mutating func keep(_ file: [String], _ k: Kept) {
        if let old = kept.removeValue(forKey: file) { bytes -= old.text.count }
        if bytes + k.text.count > Self.byteLimit {
            kept.removeAll()
            bytes = 0
        }
        guard k.text.count <= Self.byteLimit else { return }
        kept[file] = k
        bytes += k.text.count
    }

    mutating func noteRead() { reads += 1 }
}

extension Workspace {
    /// The text of the file `name` in `dir`, whose links are resolved from
    /// `file`: kept from an earlier move while its status holds, else read
    /// (no-follow, non-blocking, plain files only) and kept once settled.
    func linkText(_ name: [UInt8], in dir: Directory, from file: [String], _ index: LinkIndex?)
        -> (kept: LinkTexts.Kept, stamp: FileStamp)?
    {
        let before = Clock.nowMs()
        let status = dir.fileStatus(name)
        if let status, let k = index?.texts.kept[file], k.status == status { return (k, status.stamp) }
        index?.texts.noteRead()
        guard let read = dir.readText(name) else { return nil }
        let links = Links.parse(read.bytes)
        let k = LinkTexts.Kept(
            status: status ?? FileStatus(stamp: read.stamp, changedNs: .max), text: read.bytes, links: links,
            resolved: LinkRewrite.resolvedTargets(links, file: file))
        if let status, let index, read.stamp == status.stamp,
            status.changedNs < before &* 1_000_000 &- index.texts.settledNs
        {
            index.texts.keep(file, k)
        }
        return (k, read.stamp)
    }
}

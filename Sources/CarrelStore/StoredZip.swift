/// A ZIP archive whose entries are stored, not compressed: all a DOCX or
/// ODT reference document needs (an ODT's mimetype must be stored),
/// written without any compression library.
/// Local headers, CRC-32, the central directory and its end record
/// (APPNOTE 4.3), in that order.
public enum StoredZip {
    public static func archive(_ entries: [(name: String, bytes: [UInt8])]) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for (name, bytes) in entries {
            let offset = UInt32(out.count)
            let crc = crc32(bytes)
            let nameBytes = Array(name.utf8)
            var header: [UInt8] = []
            header += le32(0x0403_4b50) + le16(20) + le16(0) + le16(0)  // version, flags, stored
            header += le16(0) + le16(0x21)  // time 00:00, date 1980-01-01
            header += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            header += le16(UInt16(nameBytes.count)) + le16(0)
            out += header + nameBytes + bytes
            central += le32(0x0201_4b50) + le16(20) + le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21)
            central += le32(crc) + le32(UInt32(bytes.count)) + le32(UInt32(bytes.count))
            central += le16(UInt16(nameBytes.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset)
            central += nameBytes
        }
        let centralOffset = UInt32(out.count)
        out += central
        out += le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return out
    }

    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
}

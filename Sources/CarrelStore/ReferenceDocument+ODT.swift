/// The ODT that pandoc takes its styles from for a standard manuscript, the
/// layout of the DOCX one: Courier New 12 pt, double spaced, US Letter with
/// 1-inch margins, first lines indented half an inch, headings and the
/// title page's paragraphs centred, and on every page but the first the
/// running header "Surname / Title / page". Pandoc keeps this styles.xml
/// and writes its own content.xml.
extension ReferenceDocument {
    static let officeNamespaces =
        "xmlns:office=\"urn:oasis:names:tc:opendocument:xmlns:office:1.0\" "
        + "xmlns:style=\"urn:oasis:names:tc:opendocument:xmlns:style:1.0\" "
        + "xmlns:text=\"urn:oasis:names:tc:opendocument:xmlns:text:1.0\" "
        + "xmlns:fo=\"urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0\" "
        + "xmlns:svg=\"urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0\" office:version=\"1.3\""

    /// `header`: the running header's text before the page number; nil for none.
    public static func manuscriptODT(header: String?) -> [UInt8] {
        let mime = "application/vnd.oasis.opendocument.text"
        let manifest =
            "\(xml)<manifest:manifest xmlns:manifest=\"urn:oasis:names:tc:opendocument:xmlns:manifest:1.0\" "
            + "manifest:version=\"1.3\"><manifest:file-entry manifest:full-path=\"/\" manifest:media-type=\"\(mime)\"/>"
            + "<manifest:file-entry manifest:full-path=\"content.xml\" manifest:media-type=\"text/xml\"/>"
            + "<manifest:file-entry manifest:full-path=\"styles.xml\" manifest:media-type=\"text/xml\"/>"
            + "</manifest:manifest>"
        let content =
            "\(xml)<office:document-content \(officeNamespaces)><office:body><office:text><text:p/>"
            + "</office:text></office:body></office:document-content>"
        // The mimetype comes first and stored, as ODF requires; every entry here is stored.
        return StoredZip.archive([
            ("mimetype", Array(mime.utf8)), ("META-INF/manifest.xml", Array(manifest.utf8)),
            ("content.xml", Array(content.utf8)), ("styles.xml", Array(odtStyles(header: header).utf8)),
        ])
    }

    static func odtParagraph(_ name: String, _ display: String, _ paragraph: String, text: String = "") -> String {
        "<style:style style:name=\"\(name)\" style:display-name=\"\(display)\" style:family=\"paragraph\" "
            + "style:parent-style-name=\"Standard\"><style:paragraph-properties \(paragraph)/>"
            + (text.isEmpty ? "" : "<style:text-properties \(text)/>") + "</style:style>"
    }

    static func odtStyles(header: String?) -> String {
        let font = "style:font-name=\"Courier New\" fo:font-size=\"12pt\""
        let plain = "\(font) fo:font-weight=\"normal\" fo:font-style=\"normal\" fo:color=\"#000000\""
        let spacing = "fo:margin-bottom=\"0in\" fo:line-height=\"200%\""
        let flush = "fo:margin-top=\"0in\" \(spacing)"
        let body = "\(flush) fo:text-indent=\"0.5in\""
        let centred = "\(flush) fo:text-align=\"center\" fo:text-indent=\"0in\""
        var s = "\(xml)<office:document-styles \(officeNamespaces)><office:font-face-decls>"
        s += "<style:font-face style:name=\"Courier New\" svg:font-family=\"&apos;Courier New&apos;\" "
        s += "style:font-family-generic=\"modern\" style:font-pitch=\"fixed\"/></office:font-face-decls>"
        s += "<office:styles><style:default-style style:family=\"paragraph\">"
        s += "<style:paragraph-properties \(flush)/><style:text-properties \(font)/></style:default-style>"
        s += "<style:style style:name=\"Standard\" style:family=\"paragraph\">"
        s += "<style:paragraph-properties \(flush)/><style:text-properties \(font)/></style:style>"
        s += odtParagraph("Text_20_body", "Text body", body)
        s += odtParagraph("First_20_paragraph", "First paragraph", body)
        s += odtParagraph("Line_20_Block", "Line Block", "\(flush) fo:text-indent=\"0in\"")
        s += odtParagraph("Heading_20_1", "Heading 1", "\(centred) fo:keep-with-next=\"always\"", text: plain)
        s += odtParagraph("Heading_20_2", "Heading 2", "\(centred) fo:keep-with-next=\"always\"", text: plain)
        s += odtParagraph("Scene Break", "Scene Break", centred)
        let title = "fo:margin-top=\"2.5in\" \(spacing) fo:text-align=\"center\" fo:text-indent=\"0in\""
        s += odtParagraph("Manuscript Title", "Manuscript Title", title)
        s += odtParagraph("Byline", "Byline", centred)
        s += odtParagraph("Word Count", "Word Count", "\(flush) fo:text-align=\"end\" fo:text-indent=\"0in\"")
        s += odtParagraph("Pagebreak", "Pagebreak", "\(flush) fo:break-after=\"page\"")
        s += odtParagraph("Header", "Header", "fo:text-align=\"end\" fo:text-indent=\"0in\"")
        s += "</office:styles><office:automatic-styles><style:page-layout style:name=\"Manuscript\">"
        s += "<style:page-layout-properties fo:page-width=\"8.5in\" fo:page-height=\"11in\" "
        s += "fo:margin-top=\"1in\" fo:margin-bottom=\"1in\" fo:margin-left=\"1in\" fo:margin-right=\"1in\"/>"
        s += "<style:header-style><style:header-footer-properties fo:min-height=\"0in\" "
        s += "fo:margin-bottom=\"0.25in\"/></style:header-style></style:page-layout></office:automatic-styles>"
        s += "<office:master-styles><style:master-page style:name=\"Standard\" style:page-layout-name=\"Manuscript\">"
        if let header {
            // The title page has a header of its own, empty: the format puts it on the pages after.
            s += "<style:header><text:p text:style-name=\"Header\">\(escape(header))"
            s += "<text:page-number text:select-page=\"current\">2</text:page-number></text:p></style:header>"
            s += "<style:header-first><text:p text:style-name=\"Header\"/></style:header-first>"
        }
        s += "</style:master-page></office:master-styles></office:document-styles>"
        return s
    }
}

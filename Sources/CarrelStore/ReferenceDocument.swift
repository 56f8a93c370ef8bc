/// The DOCX that pandoc takes its styles from (`--reference-doc`) for a
/// standard manuscript: Courier New 12 pt, double spaced, 1-inch margins,
/// paragraphs indented half an inch, and on every page but the first the
/// running header "Surname / Title / page". Pandoc adds any style it needs
/// that this one lacks.
public enum ReferenceDocument {
    static let w =
        "xmlns:w=\"http://schemas.openxmlformats.org/wordprocessingml/2006/main\" "
        + "xmlns:r=\"http://schemas.openxmlformats.org/officeDocument/2006/relationships\""
    static let xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>"

    /// `header`: the running header's text before the page number; nil for none.
    public static func manuscript(header: String?) -> [UInt8] {
        let rels = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
        let pkg = "http://schemas.openxmlformats.org/package/2006"
        let main = "application/vnd.openxmlformats-officedocument.wordprocessingml"
        var types = "\(xml)<Types xmlns=\"\(pkg)/content-types\">"
        types +=
            "<Default Extension=\"rels\" ContentType=\"application/vnd.openxmlformats-package.relationships+xml\"/>"
        types += "<Default Extension=\"xml\" ContentType=\"application/xml\"/>"
        types += "<Override PartName=\"/word/document.xml\" ContentType=\"\(main).document.main+xml\"/>"
        types += "<Override PartName=\"/word/styles.xml\" ContentType=\"\(main).styles+xml\"/>"
        if header != nil { types += "<Override PartName=\"/word/header1.xml\" ContentType=\"\(main).header+xml\"/>" }
        types += "</Types>"
        let packageRels =
            "\(xml)<Relationships xmlns=\"\(pkg)/relationships\"><Relationship Id=\"rId1\" "
            + "Type=\"\(rels)/officeDocument\" Target=\"word/document.xml\"/></Relationships>"
        var documentRels =
            "\(xml)<Relationships xmlns=\"\(pkg)/relationships\">"
            + "<Relationship Id=\"rId1\" Type=\"\(rels)/styles\" Target=\"styles.xml\"/>"
        if header != nil {
            documentRels += "<Relationship Id=\"rId2\" Type=\"\(rels)/header\" Target=\"header1.xml\"/>"
        }
        documentRels += "</Relationships>"
        // The title page has no header (titlePg): the format puts it on the pages after.
        let section =
            "<w:sectPr>" + (header != nil ? "<w:headerReference w:type=\"default\" r:id=\"rId2\"/>" : "")
            + "<w:pgSz w:w=\"12240\" w:h=\"15840\"/><w:pgMar w:top=\"1440\" w:right=\"1440\" w:bottom=\"1440\" "
            + "w:left=\"1440\" w:header=\"720\" w:footer=\"720\" w:gutter=\"0\"/><w:titlePg/></w:sectPr>"
        let document = "\(xml)<w:document \(w)><w:body><w:p/>\(section)</w:body></w:document>"
        var entries: [(name: String, bytes: [UInt8])] = [
            ("[Content_Types].xml", Array(types.utf8)), ("_rels/.rels", Array(packageRels.utf8)),
            ("word/_rels/document.xml.rels", Array(documentRels.utf8)), ("word/document.xml", Array(document.utf8)),
            ("word/styles.xml", Array(styles.utf8)),
        ]
        if let header {
            let text =
                "\(xml)<w:hdr \(w)><w:p><w:pPr><w:jc w:val=\"right\"/></w:pPr><w:r><w:t xml:space=\"preserve\">"
                + escape(header) + "</w:t></w:r><w:fldSimple w:instr=\"PAGE\"><w:r><w:t>2</w:t></w:r></w:fldSimple>"
                + "</w:p></w:hdr>"
            entries.append(("word/header1.xml", Array(text.utf8)))
        }
        return StoredZip.archive(entries)
    }

    static func paragraphStyle(_ id: String, _ name: String, _ properties: String, run: String = "") -> String {
        "<w:style w:type=\"paragraph\" w:styleId=\"\(id)\"><w:name w:val=\"\(name)\"/><w:basedOn w:val=\"Normal\"/>"
            + "<w:qFormat/><w:pPr>\(properties)</w:pPr>" + (run.isEmpty ? "" : "<w:rPr>\(run)</w:rPr>") + "</w:style>"
    }

    static var styles: String {
        let font =
            "<w:rFonts w:ascii=\"Courier New\" w:hAnsi=\"Courier New\" w:cs=\"Courier New\" w:eastAsia=\"Courier New\"/>"
        let size = "<w:sz w:val=\"24\"/><w:szCs w:val=\"24\"/>"
        let plain = "\(font)\(size)<w:b w:val=\"0\"/><w:i w:val=\"0\"/><w:color w:val=\"000000\"/>"
        let centred = "<w:jc w:val=\"center\"/><w:ind w:firstLine=\"0\"/>"
        var s = "\(xml)<w:styles \(w)><w:docDefaults><w:rPrDefault><w:rPr>\(font)\(size)</w:rPr></w:rPrDefault>"
        s += "<w:pPrDefault><w:pPr><w:spacing w:before=\"0\" w:after=\"0\" w:line=\"480\" w:lineRule=\"auto\"/>"
        s += "</w:pPr></w:pPrDefault></w:docDefaults>"
        s += "<w:style w:type=\"paragraph\" w:default=\"1\" w:styleId=\"Normal\"><w:name w:val=\"Normal\"/>"
        s += "<w:qFormat/><w:rPr>\(font)\(size)</w:rPr></w:style>"
        s += paragraphStyle("BodyText", "Body Text", "<w:ind w:firstLine=\"720\"/>")
        s += paragraphStyle("FirstParagraph", "First Paragraph", "<w:ind w:firstLine=\"720\"/>")
        s += paragraphStyle("Compact", "Compact", "<w:ind w:firstLine=\"0\"/>")
        s += paragraphStyle("Heading1", "heading 1", "<w:keepNext/>\(centred)<w:outlineLvl w:val=\"0\"/>", run: plain)
        s += paragraphStyle("Heading2", "heading 2", "<w:keepNext/>\(centred)<w:outlineLvl w:val=\"1\"/>", run: plain)
        s += paragraphStyle("SceneBreak", "Scene Break", centred)
        s += paragraphStyle("ManuscriptTitle", "Manuscript Title", "<w:spacing w:before=\"3600\"/>\(centred)")
        s += paragraphStyle("Byline", "Byline", centred)
        s += paragraphStyle("WordCount", "Word Count", "<w:jc w:val=\"right\"/><w:ind w:firstLine=\"0\"/>")
        s += "</w:styles>"
        return s
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}

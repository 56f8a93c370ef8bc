import CarrelJSON
import CarrelProtocol
import XCTest

/// Every message's JSON, byte for byte. If one of these changes, so must editors/PROTOCOL.md.
final class GoldenTests: XCTestCase {
    func golden(_ v: JSONValue, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(v.text(), expected, file: file, line: line)
    }

    func testInitializeParamsAndResult() throws {
        let p = try InitializeRequest.Params(
            json: JSONParser.parse(
                #"""
                {"processId":1,"locale":"fr","rootUri":"file:///r","workspaceFolders":[{"uri":"file:///a","name":"a"},{"uri":"file:///b","name":"b"}],"capabilities":{}}
                """#))
        XCTAssertEqual(p, InitializeRequest.Params(folders: ["file:///a", "file:///b"], locale: "fr"))
        XCTAssertEqual(
            try InitializeRequest.Params(json: ["rootUri": "file:///r", "workspaceFolders": nil]).folders, ["file:///r"]
        )
        XCTAssertEqual(try InitializeRequest.Params(json: ["rootPath": "/r p"]).folders, ["file:///r%20p"])
        XCTAssertThrowsError(try InitializeRequest.Params(json: ["workspaceFolders": [["name": "x"]]])) {
            XCTAssertEqual($0 as? ParamError, ParamError("workspaceFolders[0].uri", .missing))
        }
        let vocabulary = InitializeRequest.Vocabulary(
            projectTypes: [.init(id: "poetry", title: "Poésie")],
            sorts: [.init(by: "name", descending: true, title: "Nom, de Z à A")],
            maxNameBytes: 255, defaultExtension: "md")
        golden(
            InitializeRequest.result(version: "0.1.0", vocabulary: vocabulary),
            #"""
            {"capabilities":{"completionProvider":{"resolveProvider":false,"triggerCharacters":["[","(","/"]},"definitionProvider":true,"documentLinkProvider":{"resolveProvider":false},"documentSymbolProvider":true,"executeCommandProvider":{"commands":["carrel.newProject","carrel.newFolder","carrel.newFile","carrel.rename","carrel.moveTo","carrel.delete","carrel.restore","carrel.emptyTrash","carrel.setSort","carrel.setConfirmDelete","carrel.setLinkUpdates","carrel.reorder","carrel.setTarget","carrel.duplicate","carrel.compile","carrel.setCompileIncluded","carrel.setByline","carrel.snapshot","carrel.snapshots","carrel.compareSnapshot","carrel.rollBack","carrel.undo","carrel.redo","carrel.setMarket","carrel.submit","carrel.setSubmissionStatus","carrel.withdrawOthers"]},"experimental":{"carrel":{"compile":{"formats":[],"recipes":{}},"names":{"defaultExtension":"md","maxBytes":255},"projectTypes":[{"id":"poetry","title":"Poésie"}],"sorts":[{"by":"name","descending":true,"title":"Nom, de Z à A"}],"submissions":{"statuses":[]}}},"inlayHintProvider":true,"referencesProvider":true,"textDocumentSync":{"change":1,"openClose":true},"workspace":{"fileOperations":{"willRename":{"filters":[{"pattern":{"glob":"**/*.md","matches":"file"}},{"pattern":{"glob":"**/*.fountain","matches":"file"}},{"pattern":{"glob":"**","matches":"folder"}}]}},"workspaceFolders":{"changeNotifications":true,"supported":true}},"workspaceSymbolProvider":true},"serverInfo":{"name":"carrel","version":"0.1.0"}}
            """#)
    }

    func testTreeParams() throws {
        XCTAssertEqual(
            try TreeRequest.Params(json: ["uri": "file:///a", "depth": 1]),
            TreeRequest.Params(uri: "file:///a", depth: 1))
        XCTAssertEqual(try TreeRequest.Params(json: .null), TreeRequest.Params())
        XCTAssertThrowsError(try TreeRequest.Params(json: ["depth": -1])) {
            XCTAssertEqual(
                $0 as? ParamError, ParamError("depth", .wrongType(expected: "a non-negative integer", found: "number")))
        }
        XCTAssertThrowsError(try TreeRequest.Params(json: ["uri": 3])) {
            XCTAssertEqual($0 as? ParamError, ParamError("uri", .wrongType(expected: "a string", found: "number")))
        }
        XCTAssertThrowsError(try TreeRequest.Params(json: "x"))
        XCTAssertEqual(
            try TreeRequest.Params(json: ["uri": "file:///a", "depth": 1, "from": 200, "count": 200]),
            TreeRequest.Params(uri: "file:///a", depth: 1, page: TreeRequest.Page(from: 200, count: 200)))
        XCTAssertEqual(
            try TreeRequest.Params(json: ["uri": "file:///a", "depth": 1, "count": 5]),
            TreeRequest.Params(uri: "file:///a", depth: 1, page: TreeRequest.Page(from: 0, count: 5)))
        XCTAssertThrowsError(try TreeRequest.Params(json: ["uri": "file:///a", "depth": 2, "from": 0])) {
            XCTAssertEqual(
                $0 as? ParamError,
                ParamError("from", .wrongType(expected: TreeRequest.Params.pageOnly, found: "number")))
        }
        XCTAssertThrowsError(try TreeRequest.Params(json: ["depth": 1, "count": -1])) {
            XCTAssertEqual(
                $0 as? ParamError, ParamError("count", .wrongType(expected: "a non-negative integer", found: "number")))
        }
        XCTAssertEqual(TreeRequest.Page(from: 5, count: 3).range(in: 7), 5..<7)
        XCTAssertEqual(TreeRequest.Page(from: Int.max, count: Int.max).range(in: 7), 7..<7)
        XCTAssertEqual(TreeRequest.Page(from: 2).range(in: 7), 2..<7)
    }

    func testNode() {
        var n = Node(
            uri: "file:///l/P/Draft", name: "Draft", title: "Brouillons", kind: "folder", role: "draft",
            icon: "doc.badge.ellipsis",
            permanent: true, folderCount: 1, fileCount: 2, created: 10, modified: 20, hasChildren: true)
        n.fileTotal = 3
        n.summary = "3 fichiers · comptage…"
        n.counting = true
        golden(
            n.json,
            #"""
            {"counting":true,"created":10,"fileCount":2,"fileTotal":3,"folderCount":1,"hasChildren":true,"icon":"doc.badge.ellipsis","kind":"folder","modified":20,"name":"Draft","permanent":true,"role":"draft","summary":"3 fichiers · comptage…","title":"Brouillons","uri":"file:///l/P/Draft","virtual":false}
            """#)
        n.counting = false
        n.childCount = 1000
        golden(
            n.json,
            #"""
            {"childCount":1000,"created":10,"fileCount":2,"fileTotal":3,"folderCount":1,"hasChildren":true,"icon":"doc.badge.ellipsis","kind":"folder","modified":20,"name":"Draft","permanent":true,"role":"draft","summary":"3 fichiers · comptage…","title":"Brouillons","uri":"file:///l/P/Draft","virtual":false}
            """#)
        n.childCount = nil
        n.conflictTotal = 1
        n.summary = "3 fichiers · 1 conflit"
        golden(
            n.json,
            #"""
            {"conflictTotal":1,"created":10,"fileCount":2,"fileTotal":3,"folderCount":1,"hasChildren":true,"icon":"doc.badge.ellipsis","kind":"folder","modified":20,"name":"Draft","permanent":true,"role":"draft","summary":"3 fichiers · 1 conflit","title":"Brouillons","uri":"file:///l/P/Draft","virtual":false}
            """#)
        var copy = Node(
            uri: "file:///l/P/Draft/a.sync-conflict-20261123-101500-ABCDEFG.md",
            name: "a.sync-conflict-20261123-101500-ABCDEFG.md", title: "a.sync-conflict-20261123-101500-ABCDEFG.md",
            kind: "file", icon: "doc.text")
        copy.conflictOf = Array("file:///l/P/Draft/a.md".utf8)
        copy.summary = "conflict copy"
        golden(
            copy.json,
            #"""
            {"conflictOf":"file:///l/P/Draft/a.md","fileCount":0,"folderCount":0,"hasChildren":false,"icon":"doc.text","kind":"file","name":"a.sync-conflict-20261123-101500-ABCDEFG.md","permanent":false,"summary":"conflict copy","title":"a.sync-conflict-20261123-101500-ABCDEFG.md","uri":"file:///l/P/Draft/a.sync-conflict-20261123-101500-ABCDEFG.md","virtual":false}
            """#)
        n.conflictTotal = nil
        n.summary = "3 fichiers"
        n.words = 1243
        n.wordsUnsaved = true
        n.target = 1500
        n.sessionWords = 250
        n.sessionTarget = 500
        golden(
            n.json,
            #"""
            {"created":10,"fileCount":2,"fileTotal":3,"folderCount":1,"hasChildren":true,"icon":"doc.badge.ellipsis","kind":"folder","modified":20,"name":"Draft","permanent":true,"role":"draft","sessionTarget":500,"sessionWords":250,"summary":"3 fichiers","target":1500,"title":"Brouillons","uri":"file:///l/P/Draft","virtual":false,"words":1243,"wordsUnsaved":true}
            """#)
        n = Node(
            uri: nil, name: "TRASH", title: "TRASH", kind: "section", icon: "list.bullet", permanent: true,
            virtual: true, folderCount: 1, hasChildren: true,
            children: [Node(uri: "file:///l/P/Trash/x", name: "x", title: "x", kind: "file", icon: "doc.text")])
        n.id = Array("file:///l/P#section-2".utf8)
        n.children![0].inTrash = true
        n.children![0].link = true
        n.confirmDelete = false
        golden(
            n.json,
            #"""
            {"children":[{"fileCount":0,"folderCount":0,"hasChildren":false,"icon":"doc.text","inTrash":true,"kind":"file","link":true,"name":"x","permanent":false,"title":"x","uri":"file:///l/P/Trash/x","virtual":false}],"confirmDelete":false,"fileCount":0,"folderCount":1,"hasChildren":true,"icon":"list.bullet","id":"file:///l/P#section-2","kind":"section","name":"TRASH","permanent":true,"title":"TRASH","virtual":true}
            """#)
    }

    func testDestinations() throws {
        XCTAssertEqual(
            try DestinationsRequest.Params(json: ["uri": "file:///l/P/a.md"]),
            DestinationsRequest.Params(uri: "file:///l/P/a.md"))
        XCTAssertThrowsError(try DestinationsRequest.Params(json: [:])) {
            XCTAssertEqual($0 as? ParamError, ParamError("uri", .missing))
        }
        golden(
            DestinationsRequest.Destination(uri: "file:///l/P/Ready", label: ["l", "P", "Prêts"]).json,
            #"""
            {"label":["l","P","Prêts"],"uri":"file:///l/P/Ready"}
            """#)
    }

    func testCompileOptions() throws {
        XCTAssertEqual(
            try CompileOptionsRequest.Params(json: ["projectUri": "file:///l/P"]),
            CompileOptionsRequest.Params(projectUri: "file:///l/P"))
        XCTAssertThrowsError(try CompileOptionsRequest.Params(json: ["uri": "file:///l/P"])) {
            XCTAssertEqual($0 as? ParamError, ParamError("projectUri", .missing))
        }
        golden(
            CompileOptionsRequest.result(
                recipes: [
                    .init(name: "manuscript", title: "Standard manuscript", format: "docx"),
                    .init(name: "broken", title: "broken", format: nil),
                ], author: "Ada", contact: ["ada@example.com"]),
            #"""
            {"byline":{"author":"Ada","contact":["ada@example.com"]},"recipes":[{"format":"docx","name":"manuscript","title":"Standard manuscript"},{"name":"broken","title":"broken"}]}
            """#)
    }

    /// `carrel.compile`'s result: a packet names its pieces and says it is one.
    func testCompileResult() {
        golden(
            CompileResult(
                path: Array("/l/P/Compiled/P.docx".utf8), recipe: "packet", format: "docx", words: 3,
                pieces: [Array("/l/P/Ready/Spring.md".utf8)], submission: true, lines: 2,
                poems: [.init(title: "Spring", lines: 2)]
            ).json,
            #"""
            {"format":"docx","lines":2,"path":"/l/P/Compiled/P.docx","pieceUris":["file:///l/P/Ready/Spring.md"],"pieces":1,"poems":[{"lines":2,"title":"Spring"}],"recipe":"packet","submission":true,"uri":"file:///l/P/Compiled/P.docx","words":3}
            """#)
        golden(
            CompileResult(
                path: Array("/l/N/Compiled/N.md".utf8), recipe: "manuscript", format: "markdown", words: 1,
                pieces: [Array("/l/N/Chapters/One.md".utf8)], submission: false
            ).json,
            #"""
            {"format":"markdown","path":"/l/N/Compiled/N.md","pieceUris":["file:///l/N/Chapters/One.md"],"pieces":1,"recipe":"manuscript","uri":"file:///l/N/Compiled/N.md","words":1}
            """#)
    }

    func testMarket() throws {
        XCTAssertEqual(
            try MarketRequest.Params(json: ["uri": "file:///l/P/Magazines/Granta"]),
            MarketRequest.Params(uri: "file:///l/P/Magazines/Granta"))
        XCTAssertThrowsError(try MarketRequest.Params(json: [:])) {
            XCTAssertEqual($0 as? ParamError, ParamError("uri", .missing))
        }
        golden(
            MarketRequest.Details(
                name: "Granta", url: "https://granta.com", deadline: "2026-12-31", readingPeriod: "March",
                fee: "£3", simultaneous: false, notes: "No rhyme"
            ).json,
            #"""
            {"deadline":"2026-12-31","fee":"£3","name":"Granta","notes":"No rhyme","readingPeriod":"March","simultaneous":false,"url":"https://granta.com"}
            """#)
        golden(MarketRequest.Details(fee: "£3").json, #"{"fee":"£3"}"#)
    }

    func testWorkspaceSymbol() throws {
        XCTAssertEqual(
            try WorkspaceSymbolRequest.Params(json: ["query": "spr"]), WorkspaceSymbolRequest.Params(query: "spr"))
        golden(
            WorkspaceSymbolRequest.Symbol(
                name: "Spring.md", kind: .file, uri: "file:///l/P/Draft/Spring.md", containerName: "P › Draft"
            ).json,
            #"""
            {"containerName":"P › Draft","kind":1,"location":{"range":{"end":{"character":0,"line":0},"start":{"character":0,"line":0}},"uri":"file:///l/P/Draft/Spring.md"},"name":"Spring.md"}
            """#)
    }

    func testCompletionItem() {
        golden(
            CompletionRequest.item(
                label: "Characters/Ada%20Lovelace.md", detail: "P/Characters/Ada Lovelace.md", line: 3, start: 11,
                end: 14, rank: 2),
            #"""
            {"detail":"P/Characters/Ada Lovelace.md","filterText":"Characters/Ada%20Lovelace.md","kind":17,"label":"Characters/Ada%20Lovelace.md","sortText":"00002","textEdit":{"newText":"Characters/Ada%20Lovelace.md","range":{"end":{"character":14,"line":3},"start":{"character":11,"line":3}}}}
            """#)
    }

    func testEveryCommandsArguments() throws {
        let cases: [(CarrelCommand.Name, JSONValue, CarrelCommand)] = [
            (
                .newProject, ["parentUri": "u", "name": "n", "type": "poetry"],
                .newProject(parentUri: "u", name: "n", type: "poetry")
            ),
            (.newFolder, ["parentUri": "u", "name": "n"], .newFolder(parentUri: "u", name: "n")),
            (.newFile, ["parentUri": "u", "name": "n"], .newFile(parentUri: "u", name: "n")),
            (.rename, ["uri": "u", "newName": "n"], .rename(uri: "u", newName: "n")),
            (.moveTo, ["uri": "u", "destinationUri": "d"], .moveTo(uri: "u", destinationUri: "d")),
            (
                .moveTo, ["uri": "u", "destinationUri": "d", "after": "s"],
                .moveTo(uri: "u", destinationUri: "d", after: "s")
            ),
            (.reorder, ["uri": "u", "before": "s"], .reorder(uri: "u", before: "s", after: nil)),
            (.reorder, ["uri": "u"], .reorder(uri: "u", before: nil, after: nil)),
            (.delete, ["uri": "u"], .delete(uri: "u", confirmed: false)),
            (.delete, ["uri": "u", "confirmed": true], .delete(uri: "u", confirmed: true)),
            (.restore, ["uri": "u"], .restore(uri: "u")),
            (.emptyTrash, ["projectUri": "p", "confirmed": true], .emptyTrash(projectUri: "p", confirmed: true)),
            (
                .setSort, ["uri": "u", "by": "modified", "descending": true],
                .setSort(uri: "u", by: "modified", descending: true)
            ),
            (.setConfirmDelete, ["uri": "u", "confirm": true], .setConfirmDelete(uri: "u", confirm: true)),
            (.setLinkUpdates, ["uri": "u", "mode": "always"], .setLinkUpdates(uri: "u", mode: "always")),
            (.setTarget, ["uri": "u", "words": 1500], .setTarget(uri: "u", kind: .words, value: 1500)),
            (.setTarget, ["uri": "u", "words": nil], .setTarget(uri: "u", kind: .words, value: nil)),
            (.setTarget, ["uri": "u", "session": 500], .setTarget(uri: "u", kind: .session, value: 500)),
            (.duplicate, ["uri": "u"], .duplicate(uri: "u")),
            (.setCompileIncluded, ["uri": "u", "included": false], .setCompileIncluded(uri: "u", included: false)),
            (.undo, [:], .undo(library: nil)),
            (.redo, ["library": "u"], .redo(library: "u")),
            (.compile, ["projectUri": "p"], .compile(projectUri: "p", recipe: nil, format: nil, output: nil)),
            (.setByline, ["projectUri": "p", "author": "A"], .setByline(projectUri: "p", author: "A", contact: nil)),
            (
                .setByline, ["projectUri": "p", "contact": ["1 Quay St", "a@x.org"]],
                .setByline(projectUri: "p", author: nil, contact: ["1 Quay St", "a@x.org"])
            ),
            (.snapshot, ["uri": "u"], .snapshot(uri: "u", title: nil)),
            (.snapshot, ["uri": "u", "title": "t"], .snapshot(uri: "u", title: "t")),
            (.snapshots, ["uri": "u"], .snapshots(uri: "u")),
            (
                .compareSnapshot, ["uri": "u", "snapshot": "s"],
                .compareSnapshot(uri: "u", snapshot: "s", other: nil)
            ),
            (
                .compareSnapshot, ["uri": "u", "snapshot": "s", "other": "o"],
                .compareSnapshot(uri: "u", snapshot: "s", other: "o")
            ),
            (.rollBack, ["uri": "u", "snapshot": "s"], .rollBack(uri: "u", snapshot: "s")),
            (
                .compile, ["projectUri": "p", "recipe": "packet", "format": "docx", "output": "/o.docx"],
                .compile(projectUri: "p", recipe: "packet", format: "docx", output: "/o.docx")
            ),
            (
                .setMarket, ["uri": "m", "fields": ["deadline": "2026-12-31", "simultaneous": false, "fee": .null]],
                .setMarket(uri: "m", fields: ["deadline": "2026-12-31", "simultaneous": false, "fee": .null])
            ),
            (
                .submit, ["items": ["a", "b"], "marketUri": "m"],
                .submit(items: ["a", "b"], marketUri: "m", date: nil, packetUri: nil, confirmed: false)
            ),
            (
                .submit, ["items": ["a"], "marketUri": "m", "date": "2026-11-20", "packetUri": "k", "confirmed": true],
                .submit(items: ["a"], marketUri: "m", date: "2026-11-20", packetUri: "k", confirmed: true)
            ),
            (
                .setSubmissionStatus, ["record": "r", "status": "noResponse"],
                .setSubmissionStatus(record: "r", piece: nil, status: "noResponse", date: nil, note: nil)
            ),
            (
                .setSubmissionStatus,
                ["record": "r", "piece": "1", "status": "accepted", "date": "d", "note": "n", "fee": "£3"],
                .setSubmissionStatus(record: "r", piece: "1", status: "accepted", date: "d", note: "n", fee: "£3")
            ),
            (.withdrawOthers, ["record": "r"], .withdrawOthers(record: "r", piece: nil)),
        ]
        for (name, args, expected) in cases {
            let p = try ExecuteCommandRequest.Params(json: ["command": .string(name.rawValue), "arguments": [args]])
            XCTAssertEqual(try CarrelCommand(name, p.argument), expected)
        }
        XCTAssertEqual(Set(cases.map(\.0.rawValue)), Set(InitializeRequest.commands))
        XCTAssertThrowsError(try CarrelCommand(.rename, ["uri": "u", "newName": false])) {
            XCTAssertEqual($0 as? ParamError, ParamError("newName", .wrongType(expected: "a string", found: "boolean")))
        }
        XCTAssertThrowsError(try CarrelCommand(.reorder, ["uri": "u", "after": 3])) {
            XCTAssertEqual($0 as? ParamError, ParamError("after", .wrongType(expected: "a string", found: "number")))
        }
        XCTAssertThrowsError(try CarrelCommand(.setMarket, ["uri": "m", "fields": ["colour": "red"]])) {
            XCTAssertEqual(($0 as? ParamError)?.field, "fields")
        }
        XCTAssertThrowsError(try CarrelCommand(.setSubmissionStatus, ["record": "r", "status": "lost"])) {
            XCTAssertEqual(($0 as? ParamError)?.field, "status")
        }
        XCTAssertThrowsError(try CarrelCommand(.submit, ["items": [3], "marketUri": "m"])) {
            XCTAssertEqual(
                $0 as? ParamError, ParamError("items", .wrongType(expected: "an array of URIs", found: "number at 0")))
        }
        XCTAssertThrowsError(try CarrelCommand(.rename, .object([:]))) {
            XCTAssertEqual($0 as? ParamError, ParamError("uri", .missing))
        }
        XCTAssertEqual(
            try ExecuteCommandRequest.Params(json: ["command": "carrel.emptyTrash", "arguments": []]).argument,
            .object([:]))
        XCTAssertThrowsError(try ExecuteCommandRequest.Params(json: ["command": "x", "arguments": [1]])) {
            XCTAssertEqual(
                $0 as? ParamError, ParamError("arguments[0]", .wrongType(expected: "an object", found: "number")))
        }
    }

    func testServerToClientMessages() {
        golden(
            ShowMessageRequest.params(message: "Move “a” to the Trash?", actions: ["Delete", "Cancel"]),
            #"""
            {"actions":[{"title":"Delete"},{"title":"Cancel"}],"message":"Move “a” to the Trash?","type":2}
            """#)
        XCTAssertEqual(ShowMessageRequest.chosenTitle(.success(["title": "Delete"])), "Delete")
        XCTAssertNil(ShowMessageRequest.chosenTitle(.success(.null)))
        XCTAssertNil(ShowMessageRequest.chosenTitle(.failure(ResponseError(code: -32601, message: "no"))))
        golden(
            Envelope.notification(
                DidChangeNotification.method,
                DidChangeNotification.params(
                    [
                        .init(type: "moved", uri: "file:///b", oldUri: "file:///a", inTrash: true),
                        .init(type: "created", uri: "file:///c"),
                    ],
                    updated: [
                        Node(
                            uri: "file:///", name: "l", title: "l", kind: "library", icon: "books.vertical",
                            fileCount: 1)
                    ])),
            #"""
            {"jsonrpc":"2.0","method":"carrel/didChange","params":{"changes":[{"inTrash":true,"oldUri":"file:///a","type":"moved","uri":"file:///b"},{"type":"created","uri":"file:///c"}],"updated":[{"fileCount":1,"folderCount":0,"hasChildren":false,"icon":"books.vertical","kind":"library","name":"l","permanent":false,"title":"l","uri":"file:///","virtual":false}]}}
            """#)
        golden(
            Envelope.notification(
                DidChangeNotification.method,
                DidChangeNotification.params(
                    [.init(type: "created", uri: "file:///l/c")], updated: [],
                    placed: [
                        .init(
                            parent: Array("file:///l".utf8), after: Array("file:///l/b".utf8),
                            node: Node(uri: "file:///l/c", name: "c", title: "c", kind: "file", icon: "doc.text")),
                        .init(
                            parent: Array("file:///p#section-0".utf8), after: nil,
                            node: Node(uri: "file:///p/a", name: "a", title: "a", kind: "file", icon: "doc.text")),
                    ])),
            #"""
            {"jsonrpc":"2.0","method":"carrel/didChange","params":{"changes":[{"type":"created","uri":"file:///l/c"}],"placed":[{"after":"file:///l/b","node":{"fileCount":0,"folderCount":0,"hasChildren":false,"icon":"doc.text","kind":"file","name":"c","permanent":false,"title":"c","uri":"file:///l/c","virtual":false},"parent":"file:///l"},{"node":{"fileCount":0,"folderCount":0,"hasChildren":false,"icon":"doc.text","kind":"file","name":"a","permanent":false,"title":"a","uri":"file:///p/a","virtual":false},"parent":"file:///p#section-0"}],"updated":[]}}
            """#)
        golden(
            Envelope.request(id: .int(1), ShowMessageRequest.method, ["type": 2]),
            #"{"id":1,"jsonrpc":"2.0","method":"window/showMessageRequest","params":{"type":2}}"#)
        // JSON-RPC allows `params` to be left out, never to be null.
        golden(
            Envelope.request(id: .int(1_000_000), InlayHintRefreshRequest.method, .null),
            #"{"id":1000000,"jsonrpc":"2.0","method":"workspace/inlayHint/refresh"}"#)
        golden(Envelope.notification("n", .null), #"{"jsonrpc":"2.0","method":"n"}"#)
    }

    func testResponsesAndErrors() {
        golden(Envelope.response(id: .string("a"), result: .null), #"{"id":"a","jsonrpc":"2.0","result":null}"#)
        golden(
            Envelope.error(id: nil, ResponseError(code: -32803, message: "m", data: ["reason": "nameTaken"])),
            #"{"error":{"code":-32803,"data":{"reason":"nameTaken"},"message":"m"},"id":null,"jsonrpc":"2.0"}"#)
    }

    func testEnvelopeDecoding() {
        func decode(_ s: String) -> Result<Incoming, EnvelopeError> { Envelope.decode(Array(s.utf8)) }
        guard
            case .success(.request(.int(1), "x", .object)) = decode(
                #"{"jsonrpc":"2.0","id":1,"method":"x","params":{}}"#)
        else { return XCTFail() }
        guard case .success(.request(.string("a"), "x", .null)) = decode(#"{"jsonrpc":"2.0","id":"a","method":"x"}"#)
        else { return XCTFail() }
        guard case .success(.notification("n", _)) = decode(#"{"jsonrpc":"2.0","method":"n"}"#) else {
            return XCTFail()
        }
        guard
            case .success(.response(.int(3), .failure(let e))) = decode(
                #"{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m"}}"#)
        else { return XCTFail() }
        XCTAssertEqual(e.code, -1)
        let bad: [(String, Int, RequestID?)] = [
            ("not json", -32700, nil),
            (#"[{"jsonrpc":"2.0","id":1,"method":"x"}]"#, -32600, nil),
            ("3", -32600, nil),
            (#"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#, -32600, nil),
            (#"{"jsonrpc":"2.0","id":true,"method":"x"}"#, -32600, nil),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"x"}"#, -32600, nil),
            (#"{"jsonrpc":"1.0","id":2,"method":"x"}"#, -32600, .int(2)),
            (#"{"jsonrpc":"2.0","id":2,"method":5}"#, -32600, .int(2)),
            (#"{"jsonrpc":"2.0","id":2,"method":"x","params":5}"#, -32602, .int(2)),
            (#"{"jsonrpc":"2.0"}"#, -32600, nil),
        ]
        for (text, code, id) in bad {
            guard case .failure(let f) = decode(text) else { XCTFail("accepted \(text)"); continue }
            XCTAssertEqual(f.error.code, code, text)
            XCTAssertEqual(f.id, id, text)
        }
    }
}

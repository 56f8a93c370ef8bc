// libFuzzer targets, compiled by Tests/Fuzz/run.sh together
// with the sources of CarrelJSON, CarrelProtocol and CarrelModel as one module.
// FUZZ_TARGET picks the target: framing, decoder or names. Each one checks
// properties, not just "no crash": a violated property traps, which libFuzzer
// reports as a crash with the input that caused it.
import Foundation

func check(_ condition: @autoclosure () -> Bool, _ what: @autoclosure () -> String) {
    if !condition() { fatalError("property violated: \(what())") }
}

enum Target: String { case framing, decoder, names }
nonisolated(unsafe) let target: Target = {
    guard let name = ProcessInfo.processInfo.environment["FUZZ_TARGET"], let t = Target(rawValue: name) else {
        fatalError("set FUZZ_TARGET to framing, decoder or names")
    }
    return t
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    switch target {
    case .framing: fuzzFraming(bytes)
    case .decoder: fuzzDecoder(bytes)
    case .names: fuzzNames(bytes)
    }
    return 0
}

/// The framer gives the same frames however the stream is chunked, never
/// a body over the limit, and reads back any JSON body it framed.
func fuzzFraming(_ bytes: [UInt8]) {
    guard let seed = bytes.first else { return }
    let stream = Array(bytes.dropFirst())
    func frames(chunk: Int) -> [MessageFramer.Frame] {
        var f = MessageFramer()
        var out: [MessageFramer.Frame] = []
        var i = 0
        while i < stream.count {
            let end = min(stream.count, i + chunk)
            f.feed(stream[i..<end])
            while let frame = f.next() { out.append(frame) }
            i = end
        }
        while let frame = f.next() { out.append(frame) }
        return out
    }
    let whole = frames(chunk: max(1, stream.count))
    let chunked = frames(chunk: Int(seed % 17) + 1)
    check(whole == chunked, "chunking changed the frames: \(whole) vs \(chunked)")
    for case .body(let b) in whole { check(b.count <= MessageFramer.maxBody, "a body over the limit was returned") }
    // What we frame, we read back, when it is JSON: other bytes may hold a
    // header line, where the framer resumes after a lying length.
    guard (try? JSONParser.parse(stream)) != nil else { return }
    var f = MessageFramer()
    f.feed(MessageFramer.frame(stream))
    check(f.next() == .body(stream), "frame() did not round-trip")
}

/// Any body decodes to a message or a JSON-RPC error, never a crash; the
/// typed params of every method accept or name the bad field; what the wire
/// refuses as ill-formed UTF-8 is a parse error, and what it accepts reads
/// the same as the lenient parse that files on disk use.
func fuzzDecoder(_ bytes: [UInt8]) {
    let strict = try? JSONParser.parse(bytes, refusingInvalidUTF8: true)
    if let strict { check((try? JSONParser.parse(bytes)) == strict, "strict and lenient parses differ") }
    if strict == nil, case .success = Envelope.decode(bytes) {
        check(false, "the wire accepted a body the strict parser refuses")
    }
    if let json = try? JSONParser.parse(bytes) {
        // What the writer writes, the parser reads back the same (doubles aside).
        if !containsDouble(json) {
            let again = try? JSONParser.parse(json.encoded())
            check(again == json, "JSON did not round-trip: \(json)")
        }
    }
    switch Envelope.decode(bytes) {
    case .failure(let e):
        check([-32700, -32600, -32602].contains(e.error.code), "unexpected envelope error code \(e.error.code)")
        check(!e.error.message.isEmpty, "an envelope error without a message")
    case .success(.request(_, let method, let params)), .success(.notification(let method, let params)):
        decodeParams(method, params)
        // Every method's params, whatever the method name says.
        for m in [
            "initialize", "carrel/tree", "workspace/symbol", "workspace/executeCommand",
            "workspace/didChangeWorkspaceFolders", "$/cancelRequest", "textDocument/didOpen",
            "textDocument/didChange", "textDocument/didClose", "textDocument/documentSymbol",
            "textDocument/inlayHint", "carrel/market",
        ] { decodeParams(m, params) }
    case .success(.response):
        break
    }
}

func decodeParams(_ method: String, _ params: JSONValue) {
    func named(_ e: ParamError) { check(!e.field.isEmpty, "a ParamError without a field") }
    do {
        switch method {
        case "initialize": _ = try InitializeRequest.Params(json: params)
        case "carrel/tree":
            let p = try TreeRequest.Params(json: params)
            check((p.depth ?? 0) >= 0, "negative depth accepted")
        case "workspace/symbol": _ = try WorkspaceSymbolRequest.Params(json: params)
        case "workspace/executeCommand":
            let p = try ExecuteCommandRequest.Params(json: params)
            check(p.argument.objectValue != nil, "a command argument that is not an object")
            for name in CarrelCommand.Name.allCases {
                do { _ = try CarrelCommand(name, p.argument) } catch { named(error) }
            }
        case "workspace/didChangeWorkspaceFolders": _ = try DidChangeWorkspaceFoldersNotification.Params(json: params)
        case "$/cancelRequest": _ = CancelRequestNotification.Params(json: params)
        case "textDocument/didOpen":
            let p = try DidOpenTextDocumentNotification.Params(json: params)
            // The outline of any text is well nested and within its lines.
            checkOutline(
                Outline.headings(p.text, .markdown),
                lines: p.text.split(separator: "\n", omittingEmptySubsequences: false).count)
            checkOutline(
                Outline.headings(p.text, .fountain),
                lines: p.text.split(separator: "\n", omittingEmptySubsequences: false).count)
        case "textDocument/didChange": _ = try DidChangeTextDocumentNotification.Params(json: params)
        case "textDocument/didClose": _ = try DidCloseTextDocumentNotification.Params(json: params)
        case "textDocument/documentSymbol": _ = try DocumentSymbolRequest.Params(json: params)
        case "textDocument/inlayHint": _ = try InlayHintRequest.Params(json: params)
        case "carrel/market": _ = try MarketRequest.Params(json: params)
        default: break
        }
    } catch {
        named(error)
    }
}

func checkOutline(_ headings: [Outline.Heading], lines: Int) {
    var stack = headings.map { ($0, 0) }
    while let (h, parentLevel) = stack.popLast() {
        check(h.level > parentLevel && h.line < h.endLine && h.endLine <= lines + 1, "a heading out of place: \(h)")
        check(h.words >= h.children.reduce(0) { $0 + $1.words }, "a section with fewer words than its subsections")
        stack += h.children.map { ($0, h.level) }
    }
}

func containsDouble(_ v: JSONValue) -> Bool {
    switch v {
    case .double: return true
    case .array(let a): return a.contains(where: containsDouble)
    case .object(let o): return o.values.contains(where: containsDouble)
    default: return false
    }
}

/// URIs decode to paths that re-encode to the same path, with no NUL and no
/// smuggled "/"; validated names obey every rule; clash keys ignore Unicode spelling.
func fuzzNames(_ bytes: [UInt8]) {
    let text = String(decoding: bytes, as: UTF8.self)
    for candidate in [text, "file://" + text, "file:///" + text] {
        if let path = try? FileURI.path(candidate) {
            check(!path.contains(0), "a decoded path with NUL from \(candidate.debugDescription)")
            check(path.first == UInt8(ascii: "/"), "a relative path from \(candidate.debugDescription)")
            check(
                !candidate.contains("?") && !candidate.contains("#"),
                "a query or fragment was accepted: \(candidate.debugDescription)")
            let slashes = candidate.utf8.filter { $0 == UInt8(ascii: "/") }.count - 2
            check(
                path.filter { $0 == UInt8(ascii: "/") }.count == slashes,
                "a %2F became a separator in \(candidate.debugDescription)")
            check(
                (try? FileURI.path(FileURI.uri(path))) == path, "URI round trip changed \(candidate.debugDescription)")
        }
    }
    do {
        let name = try NameRules.validate(text)
        check(!name.isEmpty, "an empty name was accepted")
        check(name.utf8.count <= NameRules.maxBytes, "a name over 255 bytes was accepted")
        check(
            !name.unicodeScalars.contains { $0 == "/" || $0.value == 0 || $0.properties.generalCategory == .control },
            "a name with /, NUL or a control character was accepted: \(name.debugDescription)")
        check(name != "." && name != ".." && !name.hasPrefix("."), "a dot name was accepted: \(name.debugDescription)")
        check(name == name.trimmingCharacters(in: .whitespacesAndNewlines), "an untrimmed name was returned")
        check(
            NameRules.key(name) == NameRules.key(name.decomposedStringWithCanonicalMapping),
            "NFD spelling changed the clash key of \(name.debugDescription)")
    } catch {
        check(error.reason == .invalidName, "a name refused for another reason: \(error.reason)")
    }
}

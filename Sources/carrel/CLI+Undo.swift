import CarrelModel
import CarrelWorkspace

/// `carrel undo` and `carrel redo`: the library's last operation, from
/// this device's journal, shared with the editors' server.
extension CLI {
    static func undo(_ redoing: Bool, _ options: inout Options, _ language: Language) throws {
        let ws = try library(options)
        let outcome: Outcome
        do {
            outcome = redoing ? try ws.redo(in: nil) : try ws.undo(in: nil)
        } catch {
            // A journal set aside is said even when the step is refused.
            for notice in ws.notices { writeError(notice.text(language) + "\n") }
            ws.notices.removeAll()
            throw error
        }
        for notice in ws.notices { writeError(notice.text(language) + "\n") }
        ws.notices.removeAll()
        if let said = outcome.report?.text(language) { print(said) }
    }
}

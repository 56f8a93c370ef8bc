/// The steps a compile reports while it runs (`$/progress`), in the
/// writer's language: the server shows them, never an English word.
public enum CompileStep: Sendable, Equatable {
    case compiling, reading, assembling, writing, done, nothingWritten

    public func text(_ language: Language) -> String {
        switch (self, language) {
        case (.compiling, .english): return "Compiling"
        case (.compiling, .french): return "Compilation"
        case (.reading, .english): return "Reading"
        case (.reading, .french): return "Lecture"
        case (.assembling, .english): return "Assembling"
        case (.assembling, .french): return "Assemblage"
        case (.writing, .english): return "Writing"
        case (.writing, .french): return "Écriture"
        case (.done, .english): return "Done"
        case (.done, .french): return "Terminé"
        case (.nothingWritten, .english): return "Nothing was written"
        case (.nothingWritten, .french): return "Rien n’a été écrit"
        }
    }
}

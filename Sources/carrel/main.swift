import CarrelServer
import Foundation

// Entry point: `carrel lsp` serves editors; every other subcommand is the CLI.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CLI.run(arguments))

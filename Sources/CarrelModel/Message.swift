/// Every sentence Carrel says to a writer, in English and French. Typed, so a
/// message cannot be used with the wrong arguments; French falls back to
/// English one message at a time when a translation is missing (nil).
public enum Message: Sendable, Equatable {
    // Names
    case nameEmpty
    case nameHasSlash
    case nameHasNul
    case nameHasControl
    case nameIsDots
    case nameReserved
    case nameHidden
    case nameLooksLikeEditorFile(name: String)
    case nameTooLong(bytes: Int)
    case nameTaken(name: String, parent: String)
    // Permanent and virtual folders
    case permanentFolder(name: String)
    case virtualFolder(name: String)
    // Addressing
    case notFound(path: String)
    case notAFolder(name: String)
    case notAURI(uri: String)
    case outsideWorkspace(uri: String)
    case projectPlacement
    case projectNested
    case projectMove(name: String)
    case otherLibrary
    case isLink(name: String)
    case libraryRoot(name: String)
    case intoItself(name: String)
    case notInTrash(name: String)
    case noRestoreInPlainTree(name: String)
    // Confirmation
    case cancelled
    /// Ends a row's summary while the first scan is still reading below it.
    case counting
    case confirmationTimedOut(seconds: Double)
    case confirmDelete(name: String)
    case confirmSystemTrash(name: String)
    case confirmDeleteForever(name: String)
    case confirmEmptyTrash(project: String, count: Int)
    case actionDelete
    case actionDeleteDontAsk
    case actionCancel
    case confirmLinkUpdate(links: Int, files: Int, name: String)
    case actionUpdateLinks
    case actionKeepLinks
    case linksUpdated(links: Int, files: Int)
    case linksNotUpdated(names: String)
    case linksNotRecorded(names: String)
    case linkUpdatesFinished(files: Int)
    case linkRecordRefused(path: String, because: LinkRecordFlaw)
    case brokenLink(target: String)
    // Disk
    case conflict(path: String)
    case appeared(name: String, parent: String)
    case unsupportedVersion(path: String, version: Int, known: Int)
    case corruptProjectFile(path: String, detail: String)
    case crossDevice(name: String)
    case io(path: String, detail: String)
    // Untrusted disk: what Carrel keeps in `.carrel` and its permanent folders
    case unusableEntry(path: String, found: FoundKind, expected: FoundKind)
    case fileTooLarge(path: String, limit: Int)
    case trashRecordNotWritten(name: String, path: String, detail: String)
    case unusableTrashRecord(name: String, origin: String)
    case originTooDeep(name: String, depth: Int, limit: Int)
    // Why a restore went where it went, when the record did not say for sure
    case noTrashRecord
    case originInTrash(origin: String)
    case guessedTwinRecord(name: String, earlier: Bool, origin: String)
    // Sync
    case mergedSyncConflicts(project: String, copies: Int)
    case mergeRuleNotWritten(path: String, because: MergeRuleObstacle)
    // Protocol
    case invalidParam(field: String, expected: String, found: String)
    case missingParam(field: String)
    case unknownCommand(command: String)
    case unknownProjectType(given: String, known: String)
    case unknownSort(given: String)
    // Word targets
    case targetOutOfRange(given: Int, max: Int)
    case targetOutsideProject(name: String)
    case sessionTargetOnProject(name: String)
    // Command line and projects made from existing folders
    /// `reading`: the command only shows, so nothing could have changed.
    case outsideLibrary(path: String, library: String, reading: Bool)
    /// The folder the rule found as the library around `around` is one
    /// Carrel never opens unless told (the root, a home folder…).
    case systemFolderLibrary(folder: String, around: String)
    /// A new project's folder is a plain folder inside a library.
    case projectNotInLibrary(folder: String, library: String)
    case noSubcommand
    case unknownSubcommand(name: String)
    case unknownOption(option: String, subcommand: String)
    case missingValue(option: String)
    case wrongArguments(subcommand: String, usage: String)
    case noAnswer
    case trashAlreadyEmpty(project: String)
    case deletedFromTrash(count: Int, project: String)
    case movedToSystemTrash(path: String)
    case systemTrashNotNamed(path: String)
    case noProjectAt(path: String)
    case emptyTrashOfFile(path: String)
    case projectInsideProject(name: String, project: String)
    case projectHoldsProject(name: String, project: String)
    case alreadyAProject(name: String)
    case templateNameIsNotAFolder(name: String, folder: String)
    case notAProjectType(given: String, known: String)
    case notASortOrder(given: String)
    case reorderNotSibling(name: String, anchor: String, folder: String)
    case reorderItself(name: String)
    case reorderInTrash(name: String)
    case intoOtherProjectsTrash(name: String, project: String)
    case intoTrashedFolder(name: String)
    case reorderPermanent(name: String)
    case reorderPosition
    case nameTooLongWithExtension(bytes: Int, ext: String)
    case sorted(path: String, key: String, descending: Bool)
    case inBinderOrder(path: String)
    case asksBeforeDeleting(path: String, asks: Bool)
    case notYesOrNo(given: String)
    case notATarget(given: String, max: Int)
    case targetSet(path: String, target: Int?, daily: Bool)
    case deletedForever(path: String)
    case projectToSystemTrashNotNamed(path: String)
    // Duplicate
    case duplicateInTrash(name: String)
    case duplicatePermanent(name: String)
    case duplicateProject(name: String)
    case duplicateLibrary(name: String)
    case copyTooLarge(name: String, limit: Int)
    case copyTooMany(name: String, limit: Int)
    // Compiling
    case compile(CompileMessage)
    // Links
    case links(LinkMessage)
    // Snapshots
    case snapshot(SnapshotMessage)
    // Undo and redo
    case undoHistorySetAside(path: String, newerVersion: Int?, detail: String)
    case undoNeedsLibrary
    case undoStepOutsideLibrary(path: String)
    case undoItemGone(path: String)
    case undoItemChanged(path: String)
    case undoOriginGone(path: String)
    case undoOutsideProject(path: String)
    case undoTrashRecordChanged(name: String)
    case undoSettingChanged(path: String)
    case undoStepUnusable(path: String)
    case undoLinksChanged(path: String)
    case undoLinksInEditor(path: String)
    case undoLinksNotRecorded
    case undoLinksLeft(names: String)
    // Submissions
    case submission(SubmissionMessage)
    case submissionOffer(SubmissionOfferMessage)

    /// The JSON type words of parameter errors.
    static let frenchTypeWords = [
        "a string": "une chaîne", "a boolean": "un booléen", "an object": "un objet", "an array": "un tableau",
        "a non-negative integer": "un entier positif ou nul", "string": "une chaîne", "number": "un nombre",
        "boolean": "un booléen", "object": "un objet", "array": "un tableau", "null": "null", "valid": "valide",
        "absent unless “uri” is given with “depth” 1": "absent sauf avec « uri » et « depth » 1",
    ]

    static func french(_ word: String) -> String { frenchTypeWords[word] ?? word }

    public func text(_ language: Language) -> String {
        let (en, fr) = pair
        switch language {
        case .english: return en
        case .french: return fr ?? en
        }
    }

    private var pair: (String, String?) {
        switch self {
        case .mergeRuleNotWritten(let path, let because):
            let line = ".carrel-order merge=union"
            return (
                "Carrel left \(path) as it was and did not add the line “\(line)”: \(because.words.en). Your order "
                    + "was kept. Without that line, git may stop on a conflict when two machines reorder one folder; "
                    + "add it yourself if the library travels by git.",
                "Carrel a laissé \(path) tel quel sans y ajouter la ligne « \(line) » : \(because.words.fr). Votre "
                    + "ordre est enregistré. Sans cette ligne, git peut s’arrêter sur un conflit quand deux machines "
                    + "réordonnent un même dossier ; ajoutez-la vous-même si la bibliothèque voyage par git."
            )
        case .mergedSyncConflicts(let project, let copies):
            return (
                "Two machines changed “\(project)” at once and sync kept both versions of Carrel’s own files "
                    + "(\(copies) \(copies == 1 ? "copy" : "copies") merged): nothing was lost, each setting "
                    + "keeps its latest change.",
                "Deux machines ont modifié « \(project) » en même temps et la synchronisation a gardé les deux "
                    + "versions des fichiers de Carrel (\(copies) \(copies == 1 ? "copie" : "copies") "
                    + "\(copies == 1 ? "fusionnée" : "fusionnées")) : rien n’est perdu, chaque réglage garde sa "
                    + "dernière modification."
            )
        case .nameEmpty:
            return ("A name cannot be empty.", "Un nom ne peut pas être vide.")
        case .nameHasSlash:
            return ("A name cannot contain “/”.", "Un nom ne peut pas contenir « / ».")
        case .nameHasNul:
            return ("A name cannot contain a NUL character.", "Un nom ne peut pas contenir de caractère NUL.")
        case .nameHasControl:
            return (
                "A name cannot contain control characters such as newlines or tabs.",
                "Un nom ne peut pas contenir de caractères de contrôle (retour à la ligne, tabulation…)."
            )
        case .nameIsDots:
            return ("“.” and “..” cannot be used as names.", "« . » et « .. » ne peuvent pas servir de nom.")
        case .nameReserved:
            return ("“.carrel” is reserved for Carrel’s own data.", "« .carrel » est réservé aux données de Carrel.")
        case .nameHidden:
            return (
                "A name cannot start with “.”: such files are hidden from the binder.",
                "Un nom ne peut pas commencer par « . » : ces fichiers sont cachés du classeur."
            )
        case .nameLooksLikeEditorFile(let name):
            return (
                "“\(name)” looks like a file an editor leaves behind (a backup, auto-save or swap file), "
                    + "and the binder hides those. Choose another name.",
                "« \(name) » ressemble à un fichier laissé par un éditeur (copie de sauvegarde, "
                    + "sauvegarde automatique ou fichier d’échange), que le classeur cache. Choisissez un autre nom."
            )
        case .nameTooLong(let bytes):
            return (
                "This name is \(bytes) bytes long in UTF-8; a name may be at most 255 bytes.",
                "Ce nom fait \(bytes) octets en UTF-8 ; un nom peut en faire 255 au plus."
            )
        case .nameTaken(let name, let parent):
            return (
                "“\(name)” already exists in “\(parent)” (names ignore case and Unicode spelling).",
                "« \(name) » existe déjà dans « \(parent) » (les noms ignorent la casse et la graphie Unicode)."
            )
        case .permanentFolder(let name):
            return (
                "“\(name)” is a permanent folder: it cannot be renamed, moved or deleted. Its contents can.",
                "« \(name) » est un dossier permanent : on ne peut ni le renommer, ni le déplacer, ni le supprimer. Son contenu, si."
            )
        case .virtualFolder(let name):
            return (
                "“\(name)” shows files that live in other folders; folders cannot be created or moved into it.",
                "« \(name) » montre des fichiers rangés ailleurs ; on ne peut pas y créer ni y déplacer de dossier."
            )
        case .notFound(let path):
            return ("Nothing exists at \(path).", "Rien n’existe à \(path).")
        case .notAFolder(let name):
            return ("“\(name)” is a file, not a folder.", "« \(name) » est un fichier, pas un dossier.")
        case .notAURI(let uri):
            return (
                "“\(uri)” is not an absolute file: URI without query or fragment.",
                "« \(uri) » n’est pas une URI file: absolue sans requête ni fragment."
            )
        case .outsideWorkspace(let uri):
            return (
                "\(uri) is outside every open workspace folder; Carrel only works inside them.",
                "\(uri) est hors de tous les dossiers de travail ouverts ; Carrel ne travaille qu’à l’intérieur."
            )
        case .projectPlacement:
            return (
                "Projects live directly inside a library folder: choose the library as the parent.",
                "Les projets se trouvent directement dans un dossier bibliothèque : choisissez la bibliothèque comme parent."
            )
        case .projectNested:
            return (
                "This library is itself a project; projects cannot be nested.",
                "Cette bibliothèque est elle-même un projet ; les projets ne s’imbriquent pas."
            )
        case .projectMove(let name):
            return (
                "“\(name)” is a project; projects stay directly inside their library. Rename it instead.",
                "« \(name) » est un projet ; les projets restent directement dans leur bibliothèque. Renommez-le plutôt."
            )
        case .otherLibrary:
            return (
                "Items can only move within their own library (workspace folder).",
                "Un élément ne peut se déplacer que dans sa propre bibliothèque (dossier de travail)."
            )
        case .isLink(let name):
            return (
                "“\(name)” is a link; Carrel shows links but never creates, moves or deletes anything through them.",
                "« \(name) » est un lien ; Carrel affiche les liens mais ne crée, ne déplace ni ne supprime rien à travers eux."
            )
        case .libraryRoot(let name):
            return (
                "“\(name)” is a workspace folder; Carrel does not rename, move or delete it.",
                "« \(name) » est un dossier de travail ; Carrel ne le renomme, ne le déplace ni ne le supprime."
            )
        case .intoItself(let name):
            return (
                "“\(name)” cannot be moved into itself or one of its own folders.",
                "« \(name) » ne peut pas être déplacé dans lui-même ni dans un de ses dossiers."
            )
        case .notInTrash(let name):
            return (
                "“\(name)” is not in the Trash, so there is nothing to restore.",
                "« \(name) » n’est pas dans la Corbeille : il n’y a rien à restaurer."
            )
        case .noRestoreInPlainTree(let name):
            return (
                "“\(name)” is not in a project, so it has no Trash to restore from; use your system’s trash.",
                "« \(name) » n’appartient à aucun projet et n’a donc pas de Corbeille ; utilisez la corbeille du système."
            )
        case .cancelled:
            return ("Cancelled: nothing was deleted.", "Annulé : rien n’a été supprimé.")
        case .counting:
            return ("counting…", "comptage…")
        case .confirmationTimedOut(let seconds):
            let number = seconds.rounded() == seconds && seconds < 1e9 ? String(Int(seconds)) : String(seconds)
            let french = String(number.map { $0 == "." ? "," : $0 })
            return (
                "Cancelled: the question got no answer within \(number) second\(seconds == 1 ? "" : "s"), "
                    + "so nothing was deleted.",
                "Annulé : la question est restée sans réponse pendant \(french) seconde\(seconds < 2 ? "" : "s"), "
                    + "donc rien n’a été supprimé."
            )
        case .confirmDelete(let name):
            return ("Move “\(name)” to the Trash?", "Mettre « \(name) » à la Corbeille ?")
        case .confirmSystemTrash(let name):
            return ("Move “\(name)” to the system trash?", "Mettre « \(name) » à la corbeille du système ?")
        case .confirmDeleteForever(let name):
            return (
                "Delete “\(name)” forever? This cannot be undone.",
                "Supprimer « \(name) » définitivement ? Cette action est irréversible."
            )
        case .confirmEmptyTrash(let project, let count):
            return (
                "Delete the \(count) item\(count == 1 ? "" : "s") in the Trash of “\(project)” forever? This cannot be undone.",
                "Supprimer définitivement \(count == 1 ? "l’élément" : "les \(count) éléments") de la Corbeille de « \(project) » ? Cette action est irréversible."
            )
        case .actionDelete:
            return ("Delete", "Supprimer")
        case .actionDeleteDontAsk:
            return ("Delete and Don't Ask Again", "Supprimer et ne plus demander")
        case .actionCancel:
            return ("Cancel", "Annuler")
        case .confirmLinkUpdate(let links, let files, let name):
            return (
                "\(links) link\(links == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s") point\(links == 1 ? "s" : "") "
                    + "to “\(name)”: update \(links == 1 ? "it" : "them")?",
                "\(links) lien\(links == 1 ? "" : "s") dans \(files) fichier\(files == 1 ? "" : "s") "
                    + "pointe\(links == 1 ? "" : "nt") vers « \(name) » : \(links == 1 ? "le" : "les") mettre à jour ?"
            )
        case .actionUpdateLinks:
            return ("Update Links", "Mettre à jour les liens")
        case .actionKeepLinks:
            return ("Don't Update", "Ne pas mettre à jour")
        case .linksUpdated(let links, let files):
            return (
                "Updated \(links) link\(links == 1 ? "" : "s") in \(files) file\(files == 1 ? "" : "s").",
                "\(links) lien\(links == 1 ? "" : "s") mis à jour dans \(files) fichier\(files == 1 ? "" : "s")."
            )
        case .linkUpdatesFinished(let files):
            return (
                "Carrel stopped while updating links after a move; it has now finished updating \(files) "
                    + "file\(files == 1 ? "" : "s").",
                "Carrel s’est arrêté pendant la mise à jour des liens après un déplacement ; il vient de finir de "
                    + "mettre à jour \(files) fichier\(files == 1 ? "" : "s")."
            )
        case .linkRecordRefused(let path, let because):
            return (
                "Carrel left \(path) as it was and updated no link from it: \(because.words.en).",
                "Carrel a laissé \(path) tel quel et n’a mis à jour aucun lien d’après lui : \(because.words.fr)."
            )
        case .brokenLink(let target):
            return (
                "Nothing in the library is called “\(target)”.",
                "Rien dans la bibliothèque ne s’appelle « \(target) »."
            )
        case .linksNotUpdated(let names):
            return (
                "The links in \(names) were not updated and still point to the old place: the file changed while "
                    + "Carrel was working, or the editor did not apply the change. Nothing in it was overwritten.",
                "Les liens de \(names) n’ont pas été mis à jour et pointent encore vers l’ancien emplacement : le "
                    + "fichier a changé pendant l’opération, ou l’éditeur n’a pas appliqué la modification. Rien n’y a "
                    + "été écrasé."
            )
        case .linksNotRecorded(let names):
            return (
                "The links in \(names) were not updated and still point to the old place: Carrel could not write "
                    + "its record of the update in its state folder on this device, and changes no file without "
                    + "one. Nothing in it was overwritten.",
                "Les liens de \(names) n’ont pas été mis à jour et pointent encore vers l’ancien emplacement : "
                    + "Carrel n’a pas pu écrire le relevé de la mise à jour dans son dossier d’état sur cet appareil, "
                    + "et ne modifie aucun fichier sans lui. Rien n’y a été écrasé."
            )
        case .conflict(let path):
            return (
                "\(path) changed on disk while Carrel was working; nothing was overwritten. Try again.",
                "\(path) a changé sur le disque pendant l’opération ; rien n’a été écrasé. Réessayez."
            )
        case .appeared(let name, let parent):
            return (
                "“\(name)” appeared in “\(parent)” while Carrel was working; nothing was overwritten. Choose another name or try again.",
                "« \(name) » est apparu dans « \(parent) » pendant l’opération ; rien n’a été écrasé. Choisissez un autre nom ou réessayez."
            )
        case .unsupportedVersion(let path, let version, let known):
            return (
                "\(path) uses format version \(version), but this Carrel only knows up to \(known). Update Carrel; the file was left untouched.",
                "\(path) utilise la version \(version) du format, mais ce Carrel ne connaît que jusqu’à la \(known). Mettez Carrel à jour ; le fichier n’a pas été modifié."
            )
        case .corruptProjectFile(let path, let detail):
            return (
                "\(path) could not be read (\(detail)); it was left untouched. Fix or remove it.",
                "\(path) est illisible (\(detail)) ; il n’a pas été modifié. Corrigez-le ou supprimez-le."
            )
        case .crossDevice(let name):
            return (
                "“\(name)” and its destination are on different disks. Carrel never copies and deletes; nothing was changed.",
                "« \(name) » et sa destination sont sur des disques différents. Carrel ne copie jamais pour supprimer ensuite ; rien n’a changé."
            )
        case .io(let path, let detail):
            return (
                "The disk refused the change at \(path): \(detail). Nothing was changed.",
                "Le disque a refusé la modification à \(path) : \(detail). Rien n’a changé."
            )
        case .unusableEntry(let path, let found, let expected):
            let (en, fr) = (expected.words.en, expected.words.fr)
            return (
                "\(path) is \(found.words.en) where Carrel keeps \(en); Carrel does not follow or open it. "
                    + "Nothing was changed: remove it or put \(en) there.",
                "\(path) est \(found.words.fr) là où Carrel garde \(fr) ; Carrel ne le suit ni ne l’ouvre. "
                    + "Rien n’a changé : supprimez-le ou mettez-y \(fr)."
            )
        case .fileTooLarge(let path, let limit):
            return (
                "\(path) is larger than \(limit >> 20) MiB (\(limit) bytes), the most Carrel reads; "
                    + "it was left untouched. Make it smaller or remove it.",
                "\(path) dépasse \(limit >> 20) Mio (\(limit) octets), le maximum que Carrel lit ; "
                    + "il n’a pas été modifié. Réduisez-le ou supprimez-le."
            )
        case .trashRecordNotWritten(let name, let path, let detail):
            return (
                "Carrel could not record where “\(name)” came from in \(path) (\(detail)), "
                    + "so it did not move it to the Trash. Nothing was changed.",
                "Carrel n’a pas pu noter dans \(path) d’où vient « \(name) » (\(detail)) ; "
                    + "il ne l’a donc pas mis à la Corbeille. Rien n’a changé."
            )
        case .unusableTrashRecord(let name, let origin):
            return (
                "The Trash record of “\(name)” names an origin Carrel cannot recreate (“\(origin)”): "
                    + "the record is unusable, and nothing was changed. "
                    + "Move “\(name)” out of the Trash into the folder where it belongs.",
                "L’enregistrement de Corbeille de « \(name) » indique une origine que Carrel ne peut pas "
                    + "recréer (« \(origin) ») : il est inutilisable, et rien n’a changé. "
                    + "Déplacez « \(name) » hors de la Corbeille, dans le dossier où il doit aller."
            )
        case .originTooDeep(let name, let depth, let limit):
            return (
                "The Trash record of “\(name)” names an origin \(depth) folders deep, deeper than the \(limit) "
                    + "Carrel recreates: the record is unusable, and nothing was changed. "
                    + "Move “\(name)” out of the Trash into the folder where it belongs.",
                "L’enregistrement de Corbeille de « \(name) » indique une origine à \(depth) dossiers de "
                    + "profondeur, plus que les \(limit) que Carrel recrée : il est inutilisable, et rien n’a "
                    + "changé. Déplacez « \(name) » hors de la Corbeille, dans le dossier où il doit aller."
            )
        case .noTrashRecord:
            return (
                "Carrel has no record of where it was, so it went to the project’s top.",
                "Carrel n’a pas noté d’où il venait ; il est donc à la racine du projet."
            )
        case .originInTrash(let origin):
            return (
                "its Trash record names a place inside the Trash (“\(origin)”), which is no origin, "
                    + "so it went where an item without a record goes.",
                "son enregistrement de Corbeille indique un endroit dans la Corbeille (« \(origin) »), "
                    + "qui n’est pas une origine ; il est donc allé là où va un élément sans enregistrement."
            )
        case .guessedTwinRecord(let name, let earlier, let origin):
            return (
                "two deletions of “\(name)” met in the Trash, and sync renamed one; Carrel guessed it is the "
                    + "\(earlier ? "earlier" : "later") deletion, from “\(origin)”.",
                "deux suppressions de « \(name) » se sont rencontrées dans la Corbeille, et la synchronisation "
                    + "en a renommé une ; Carrel a supposé que c’est la suppression la plus "
                    + "\(earlier ? "ancienne" : "récente"), venue de « \(origin) »."
            )
        case .invalidParam(let field, let expected, let found):
            return (
                "Invalid params: “\(field)” must be \(expected), not \(found).",
                "Paramètres invalides : « \(field) » doit être \(Self.french(expected)), pas \(Self.french(found))."
            )
        case .missingParam(let field):
            return ("Invalid params: “\(field)” is required.", "Paramètres invalides : « \(field) » est requis.")
        case .unknownCommand(let command):
            return ("Unknown command “\(command)”.", "Commande inconnue « \(command) ».")
        case .unknownProjectType(let given, let known):
            return (
                "Invalid params: “type” must be one of \(known), not “\(given)”.",
                "Paramètres invalides : « type » doit être parmi \(known), pas « \(given) »."
            )
        case .unknownSort(let given):
            return (
                "Invalid params: “by” must be manual, name, modified or created, not “\(given)”.",
                "Paramètres invalides : « by » doit valoir manual, name, modified ou created, pas « \(given) »."
            )
        case .targetOutOfRange(let given, let max):
            return (
                "Invalid params: a word target is a whole number from 1 to \(max), not \(given).",
                "Paramètres invalides : un objectif de mots est un nombre entier de 1 à \(max), pas \(given)."
            )
        case .targetOutsideProject(let name):
            return (
                "“\(name)” is not in a project, and word targets are kept in projects. Nothing was changed.",
                "« \(name) » n’est dans aucun projet, et les objectifs de mots sont gardés dans les projets. Rien n’a changé."
            )
        case .sessionTargetOnProject(let name):
            return (
                "A daily target belongs to a whole project, and “\(name)” is not one. Nothing was changed.",
                "Un objectif quotidien appartient à un projet entier, et « \(name) » n’en est pas un. Rien n’a changé."
            )
        case .outsideLibrary(let path, let library, let reading):
            if reading {
                return (
                    "\(path) is outside the library \(library); Carrel only shows what is inside it. "
                        + "To see another library, name it with --library DIR.",
                    "\(path) est hors de la bibliothèque \(library) ; Carrel ne montre que ce qu’elle contient. "
                        + "Pour en voir une autre, nommez-la avec --library DOSSIER."
                )
            }
            return (
                "\(path) is outside the library \(library); Carrel only works inside it. Nothing was changed. "
                    + "To work in another library, name it with --library DIR.",
                "\(path) est hors de la bibliothèque \(library) ; Carrel ne travaille qu’à l’intérieur. Rien n’a changé. "
                    + "Pour travailler dans une autre, nommez-la avec --library DOSSIER."
            )
        case .systemFolderLibrary(let folder, let around):
            let why = (
                "a system or home folder, which Carrel never takes as a library unless told. Nothing was read or changed.",
                "un dossier système ou personnel, dont Carrel ne fait jamais une bibliothèque sans qu’on le lui dise. "
                    + "Rien n’a été lu ni changé."
            )
            if folder == around {
                return (
                    "\(folder) is \(why.0) Run carrel inside your library, or name it with --library DIR.",
                    "\(folder) est \(why.1) Lancez carrel dans votre bibliothèque, ou nommez-la avec --library DOSSIER."
                )
            }
            return (
                "The library around \(around) would be \(folder), \(why.0) Name your library with --library DIR.",
                "La bibliothèque autour de \(around) serait \(folder), \(why.1) "
                    + "Nommez votre bibliothèque avec --library DOSSIER."
            )
        case .projectNotInLibrary(let folder, let library):
            return (
                "\(folder) is a folder in the library \(library), and projects sit directly in their library. "
                    + "Nothing was changed. Make the project in \(library), or name another library with --library DIR.",
                "\(folder) est un dossier de la bibliothèque \(library), et les projets sont directement dans leur "
                    + "bibliothèque. Rien n’a changé. Créez le projet dans \(library), ou nommez une autre "
                    + "bibliothèque avec --library DOSSIER."
            )
        case .noSubcommand:
            return (
                "Usage: carrel <subcommand> [arguments]; “carrel --help” lists the subcommands.",
                "Usage : carrel <sous-commande> [arguments] ; « carrel --help » liste les sous-commandes."
            )
        case .unknownSubcommand(let name):
            return (
                "“\(name)” is not a carrel subcommand; “carrel --help” lists them.",
                "« \(name) » n’est pas une sous-commande de carrel ; « carrel --help » les liste."
            )
        case .unknownOption(let option, let subcommand):
            return (
                "“\(option)” is not an option of carrel \(subcommand); “carrel help \(subcommand)” lists them.",
                "« \(option) » n’est pas une option de carrel \(subcommand) ; « carrel help \(subcommand) » les liste."
            )
        case .missingValue(let option):
            return ("\(option) needs a value after it.", "\(option) doit être suivi d’une valeur.")
        case .wrongArguments(let subcommand, let usage):
            return (
                "Usage: \(usage); “carrel help \(subcommand)” explains it.",
                "Usage : \(usage) ; « carrel help \(subcommand) » l’explique."
            )
        case .noAnswer:
            return (
                "No answer came on standard input, so nothing was deleted. Pass --yes to delete without a question.",
                "Aucune réponse n’est arrivée sur l’entrée standard : rien n’a été supprimé. Ajoutez --yes pour supprimer sans question."
            )
        case .trashAlreadyEmpty(let project):
            return (
                "The Trash of \(project) is already empty; nothing was deleted.",
                "La Corbeille de \(project) est déjà vide ; rien n’a été supprimé."
            )
        case .deletedFromTrash(let count, let project):
            return (
                "Deleted \(count) item\(count == 1 ? "" : "s") from the Trash of \(project) for good.",
                "\(count == 1 ? "1 élément supprimé" : "\(count) éléments supprimés") définitivement de la Corbeille de \(project)."
            )
        case .movedToSystemTrash(let path):
            return ("Moved \(path) to the system trash.", "\(path) a été mis à la corbeille du système.")
        case .systemTrashNotNamed(let path):
            return (
                "\(path) is not in a project, so it has no Trash. Pass --system-trash to move it to the system trash; nothing was changed.",
                "\(path) n’appartient à aucun projet et n’a donc pas de Corbeille. Ajoutez --system-trash pour le mettre à la corbeille du système ; rien n’a changé."
            )
        case .noProjectAt(let path):
            return (
                "There is no project at \(path), so there is no Trash to empty.",
                "Il n’y a pas de projet à \(path), donc pas de Corbeille à vider."
            )
        case .emptyTrashOfFile(let path):
            return (
                "\(path) is a file: empty-trash takes a project. To delete one item in the Trash for good, use carrel rm on it.",
                "\(path) est un fichier : empty-trash prend un projet. Pour supprimer définitivement un élément de la Corbeille, utilisez carrel rm."
            )
        case .projectInsideProject(let name, let project):
            return (
                "“\(name)” is inside the project \(project); projects cannot be nested.",
                "« \(name) » est dans le projet \(project) ; les projets ne s’imbriquent pas."
            )
        case .projectHoldsProject(let name, let project):
            return (
                "“\(name)” holds the project \(project); projects cannot be nested.",
                "« \(name) » contient le projet \(project) ; les projets ne s’imbriquent pas."
            )
        case .alreadyAProject(let name):
            return ("“\(name)” is already a project.", "« \(name) » est déjà un projet.")
        case .templateNameIsNotAFolder(let name, let folder):
            return (
                "“\(name)” is not a folder, but the project needs its permanent folder “\(folder)” there. Rename or move “\(name)” first; nothing was changed.",
                "« \(name) » n’est pas un dossier, mais le projet a besoin de son dossier permanent « \(folder) » à cet endroit. Renommez ou déplacez d’abord « \(name) » ; rien n’a changé."
            )
        case .notAProjectType(let given, let known):
            return (
                "“\(given)” is not a project type; choose one of \(known).",
                "« \(given) » n’est pas un type de projet ; choisissez parmi \(known)."
            )
        case .notASortOrder(let given):
            return (
                "“\(given)” is not a sort order; choose manual, name, modified or created.",
                "« \(given) » n’est pas un ordre de tri ; choisissez manual, name, modified ou created."
            )
        case .reorderNotSibling(let name, let anchor, let folder):
            return (
                "“\(anchor)” is not in “\(folder)” beside “\(name)”: an item is placed only among the items of its own folder. Move it there first.",
                "« \(anchor) » n’est pas dans « \(folder) » à côté de « \(name) » : un élément ne se place que parmi ceux de son dossier. Déplacez-le d’abord."
            )
        case .reorderItself(let name):
            return (
                "“\(name)” cannot be placed before or after itself; choose another item of its folder.",
                "« \(name) » ne peut pas être placé avant ou après lui-même ; choisissez un autre élément de son dossier."
            )
        case .intoOtherProjectsTrash(let name, let project):
            return (
                "“\(name)” cannot go into the Trash of “\(project)”: a Trash holds only what was deleted from its own"
                    + " project. Delete it instead.",
                "« \(name) » ne peut pas aller dans la Corbeille de « \(project) » : une Corbeille ne garde que ce qui"
                    + " a été supprimé de son propre projet. Supprimez-le plutôt."
            )
        case .intoTrashedFolder(let name):
            return (
                "“\(name)” cannot be moved into a folder in the Trash. Restore that folder first, or delete the item.",
                "« \(name) » ne peut pas être déplacé dans un dossier de la Corbeille. Restaurez d’abord ce dossier,"
                    + " ou supprimez l’élément."
            )
        case .reorderInTrash(let name):
            return (
                "“\(name)” is in the Trash, which keeps no order of its own. Restore it first.",
                "« \(name) » est dans la Corbeille, qui n’a pas d’ordre propre. Restaurez-le d’abord."
            )
        case .reorderPermanent(let name):
            return (
                "“\(name)” is a permanent folder: permanent folders keep their template’s order. Their contents can be ordered.",
                "« \(name) » est un dossier permanent : les dossiers permanents gardent l’ordre de leur modèle. Leur contenu peut être ordonné."
            )
        case .reorderPosition:
            return (
                "Invalid params: give exactly one of “before” and “after”.",
                "Paramètres invalides : donnez exactement un de « before » et « after »."
            )
        case .nameTooLongWithExtension(let bytes, let ext):
            return (
                "With “.\(ext)” added, this name is \(bytes) bytes long in UTF-8; a name may be at most 255 bytes. Shorten it, or give it an extension of its own.",
                "Avec « .\(ext) » ajouté, ce nom fait \(bytes) octets en UTF-8 ; un nom peut en faire 255 au plus. Raccourcissez-le ou donnez-lui sa propre extension."
            )
        case .sorted(let path, let key, let descending):
            return (
                "\(path) is now sorted by \(key)\(descending ? ", descending" : "").",
                "\(path) est maintenant trié par \(key)\(descending ? ", en ordre décroissant" : "")."
            )
        case .inBinderOrder(let path):
            return (
                "\(path) is now in binder order: the order you give it.",
                "\(path) est maintenant dans l’ordre du classeur : celui que vous lui donnez."
            )
        case .asksBeforeDeleting(let path, let asks):
            return asks
                ? ("Deleting in \(path) now asks first.", "Supprimer dans \(path) demande désormais confirmation.")
                : ("Deleting in \(path) no longer asks first.", "Supprimer dans \(path) ne demande plus confirmation.")
        case .notYesOrNo(let given):
            return ("Say yes or no, not “\(given)”.", "Répondez yes ou no, pas « \(given) ».")
        case .notATarget(let given, let max):
            return (
                "A word target is a whole number from 1 to \(max), or “none”, not “\(given)”. Nothing was changed.",
                "Un objectif de mots est un nombre entier de 1 à \(max), ou « none », pas « \(given) ». Rien n’a changé."
            )
        case .targetSet(let path, let target, let daily):
            switch (target, daily) {
            case (let n?, false):
                return (
                    "\(path) now aims at \(CountWords.number(n, .english)) words.",
                    "\(path) vise désormais \(CountWords.number(n, .french)) mots."
                )
            case (let n?, true):
                return (
                    "\(path) now aims at \(CountWords.number(n, .english)) words a day on this computer.",
                    "\(path) vise désormais \(CountWords.number(n, .french)) mots par jour sur cet ordinateur."
                )
            case (nil, false):
                return ("\(path) has no word target now.", "\(path) n’a plus d’objectif de mots.")
            case (nil, true):
                return ("\(path) has no daily target now.", "\(path) n’a plus d’objectif quotidien.")
            }
        case .deletedForever(let path):
            return ("Deleted \(path) for good.", "\(path) a été supprimé définitivement.")
        case .compile(let m):
            return m.pair
        case .links(let m):
            return m.pair
        case .snapshot(let m):
            return m.pair
        case .submission(let m):
            return m.pair
        case .submissionOffer(let m):
            return m.pair
        case .projectToSystemTrashNotNamed(let path):
            return (
                "\(path) is a project: deleting it moves the whole project to the system trash, outside the library. Pass --system-trash to do so; nothing was changed.",
                "\(path) est un projet : le supprimer met tout le projet à la corbeille du système, hors de la bibliothèque. Ajoutez --system-trash pour le faire ; rien n’a changé."
            )
        case .duplicateInTrash(let name):
            return (
                "“\(name)” is in the Trash. Restore it first, then duplicate it.",
                "« \(name) » est dans la Corbeille. Restaurez-le d’abord, puis dupliquez-le."
            )
        case .duplicatePermanent(let name):
            return (
                "“\(name)” is a permanent folder: a project has one of each. Duplicate what is inside it.",
                "« \(name) » est un dossier permanent : un projet n’en a qu’un de chaque. Dupliquez plutôt son contenu."
            )
        case .duplicateProject(let name):
            return (
                "“\(name)” is a project; Carrel does not duplicate projects. Duplicate its folders or files.",
                "« \(name) » est un projet ; Carrel ne duplique pas les projets. Dupliquez ses dossiers ou ses fichiers."
            )
        case .duplicateLibrary(let name):
            return (
                "“\(name)” is a workspace folder; Carrel does not duplicate it.",
                "« \(name) » est un dossier de travail ; Carrel ne le duplique pas."
            )
        case .copyTooLarge(let name, let limit):
            return (
                "“\(name)” holds more than \(limit / (1 << 20)) MiB; Carrel copies no more at once. Nothing was copied.",
                "« \(name) » contient plus de \(limit / (1 << 20)) Mio ; Carrel n’en copie pas davantage d’un coup. Rien n’a été copié."
            )
        case .copyTooMany(let name, let limit):
            return (
                "“\(name)” holds more than \(limit) files and folders; Carrel copies no more at once. Nothing was copied.",
                "« \(name) » contient plus de \(limit) fichiers et dossiers ; Carrel n’en copie pas davantage d’un coup. Rien n’a été copié."
            )
        case .undoHistorySetAside(let path, let newer, let detail):
            if let newer {
                return (
                    "The undo history was written by a newer Carrel (version \(newer)); it was set aside as “\(path)” and a new one begun.",
                    "L’historique d’annulation vient d’un Carrel plus récent (version \(newer)) ; il a été mis de côté sous « \(path) » et un nouveau commence."
                )
            }
            return (
                "The undo history could not be read (\(detail)); it was set aside as “\(path)” and a new one begun.",
                "L’historique d’annulation est illisible (\(detail)) ; il a été mis de côté sous « \(path) » et un nouveau commence."
            )
        case .undoNeedsLibrary:
            return (
                "Several libraries are open and none was used yet: name the library to undo in.",
                "Plusieurs bibliothèques sont ouvertes et aucune n’a encore servi : indiquez celle où annuler."
            )
        case .undoStepOutsideLibrary(let path):
            return (
                "The undo history names “\(path)”, which is not inside the library; that step was dropped and nothing was changed.",
                "L’historique d’annulation désigne « \(path) », hors de la bibliothèque ; cette étape a été retirée et rien n’a changé."
            )
        case .undoItemGone(let path):
            return (
                "“\(path)” is no longer there: another program or machine moved or deleted it since. That step was dropped and nothing was changed.",
                "« \(path) » n’est plus là : un autre programme ou une autre machine l’a déplacé ou supprimé depuis. Cette étape a été retirée et rien n’a changé."
            )
        case .undoItemChanged(let path):
            return (
                "“\(path)” was edited or replaced since, by another program or machine. That step was dropped and nothing was changed.",
                "« \(path) » a été modifié ou remplacé depuis, par un autre programme ou une autre machine. Cette étape a été retirée et rien n’a changé."
            )
        case .undoOriginGone(let path):
            return (
                "The folder “\(path)” it came from is no longer there. Nothing was changed.",
                "Le dossier « \(path) » d’où il venait n’est plus là. Rien n’a changé."
            )
        case .undoOutsideProject(let path):
            return (
                "“\(path)” is in no project, so there is no Trash to put it back in. Nothing was changed.",
                "« \(path) » n’est dans aucun projet : il n’y a pas de Corbeille où le remettre. Rien n’a changé."
            )
        case .undoSettingChanged(let path):
            return (
                "The setting of “\(path)” changed since, by another program or machine. That step was dropped and nothing was changed.",
                "Le réglage de « \(path) » a changé depuis, par un autre programme ou une autre machine. Cette étape a été retirée et rien n’a changé."
            )
        case .undoLinksChanged(let path):
            return (
                "The links Carrel updated in “\(path)” were edited since, or the file is gone; undoing the move would leave them pointing nowhere. That step was dropped and nothing was changed.",
                "Les liens que Carrel a mis à jour dans « \(path) » ont été modifiés depuis, ou le fichier n’est plus là ; annuler le déplacement les laisserait ne mener nulle part. Cette étape a été retirée et rien n’a changé."
            )
        case .undoLinksInEditor(let path):
            return (
                "“\(path)” is open in an editor that cannot take Carrel’s edits, and undoing the move would change its links. Close it, then undo again. Nothing was changed.",
                "« \(path) » est ouvert dans un éditeur qui n’accepte pas les modifications de Carrel, et annuler le déplacement changerait ses liens. Fermez-le, puis annulez de nouveau. Rien n’a changé."
            )
        case .undoLinksNotRecorded:
            return (
                "Carrel could not write its record of the links to put back in its state folder on this device, and changes no file without one. Nothing was changed.",
                "Carrel n’a pas pu écrire le relevé des liens à rétablir dans son dossier d’état sur cet appareil, et ne modifie aucun fichier sans lui. Rien n’a changé."
            )
        case .undoLinksLeft(let names):
            return (
                "Undo left the links in \(names) as they are: the file changed while Carrel was working, or the editor did not apply the change. Nothing in it was overwritten.",
                "L’annulation a laissé les liens de \(names) tels quels : le fichier a changé pendant l’opération, ou l’éditeur n’a pas appliqué la modification. Rien n’y a été écrasé."
            )
        case .undoStepUnusable(let path):
            return (
                "The undo history’s step for “\(path)” holds a value Carrel never writes; that step was dropped and nothing was changed.",
                "L’étape de l’historique d’annulation pour « \(path) » contient une valeur que Carrel n’écrit jamais ; elle a été retirée et rien n’a changé."
            )
        case .undoTrashRecordChanged(let name):
            return (
                "The Trash’s record of “\(name)” no longer names where it was. Nothing was changed; Restore puts it back where the record says.",
                "La trace de « \(name) » dans la Corbeille ne dit plus d’où il venait. Rien n’a changé ; Restaurer le remet où elle l’indique."
            )
        }
    }
}

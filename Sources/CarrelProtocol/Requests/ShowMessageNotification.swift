import CarrelJSON

/// `window/showMessage`, server → client: what a command did, where it took
/// writing out of sight or brought it back ("Moved “Spring.md” to the
/// Trash."). Stock clients show it as they show any server message.
public enum ShowMessageNotification {
    public static let method = "window/showMessage"
    public static let info = 3

    public static func params(message: String) -> JSONValue {
        ["type": .int(info), "message": .string(message)]
    }
}

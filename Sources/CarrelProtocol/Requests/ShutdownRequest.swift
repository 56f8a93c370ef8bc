/// `shutdown`: result null; afterwards only `exit` is accepted.
public enum ShutdownRequest {
    public static let method = "shutdown"
}

/// `exit`: ends the process, code 0 after `shutdown`, 1 without.
public enum ExitNotification {
    public static let method = "exit"
}

/// `initialized`: the client is ready; the server starts watching the disk.
public enum InitializedNotification {
    public static let method = "initialized"
}

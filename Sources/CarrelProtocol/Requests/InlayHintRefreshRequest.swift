/// `workspace/inlayHint/refresh`, server → client: counts changed, so the
/// client asks for its inlay hints again. Sent only to clients that say
/// `capabilities.workspace.inlayHint.refreshSupport`, one at a time.
public enum InlayHintRefreshRequest {
    public static let method = "workspace/inlayHint/refresh"
}

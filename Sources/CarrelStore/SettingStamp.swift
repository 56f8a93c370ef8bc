import CarrelJSON

/// When a setting of project.json last changed: ms since the epoch, by the
/// clock of the machine that changed it. The file travels with the
/// library, so a stamp is untrusted input like the rest of it: read into a
/// range no arithmetic can leave, and a writer's change is always stamped
/// after the stamp it replaces, whatever that says.
enum SettingStamp {
    /// The last millisecond of the year 9999. No clock a writer keeps reads
    /// past it, and a stamp one past it is still far inside `Int64`.
    static let latest: Int64 = 253_402_300_799_999

    /// A stamp as stored. One outside `0...latest` (negative, past the
    /// year 9999, not a whole number) was written by no clock, so it says
    /// nothing of when the setting changed and reads as 0, like a setting
    /// of a file from before stamps.
    static func read(_ stored: JSONValue?) -> Int64 {
        guard let n = stored?.intValue, n >= 0, Int64(n) <= latest else { return 0 }
        return Int64(n)
    }

    /// The stamp of a writer's change to a setting stamped `previous`: the
    /// clock, or just after `previous` when that is later (another
    /// machine's clock runs ahead, or the file says the setting changed in
    /// the future). So the change sorts after the value it replaces, here
    /// and in every merge with a version that still holds that value, and a
    /// setting never becomes one nobody can change. Only a setting already
    /// stamped `latest` ties with its change. A setting never changed (0)
    /// takes the clock as it is: a new project's own settings are written
    /// at 0, as never changed.
    static func change(after previous: Int64, now: Int64) -> Int64 {
        let clock = min(max(now, 0), latest)
        return previous == 0 ? clock : max(clock, justAfter(previous))
    }

    /// One millisecond after `previous`, never past `latest`: a cleared
    /// setting's stamp, which depends on the value it clears only, so two
    /// machines clearing it write the same lines.
    static func justAfter(_ previous: Int64) -> Int64 {
        min(max(previous, 0), latest - 1) + 1
    }
}

/// How pictures reach the screen: as images through a terminal graphics protocol, as half-block cells, or not at all.
public enum PictureMode: Hashable, Sendable {
    /// The kitty graphics protocol (kitty, and terminals that name themselves kitty).
    case kitty
    /// iTerm2's inline images protocol (iTerm2, WezTerm).
    case iTerm
    /// 24-bit colour half blocks, two pixels a cell: every colour terminal.
    case blocks
    /// No pictures: labelled placeholders.
    case none

    /// What the environment says the terminal supports.
    ///
    /// `ERRAND_PICTURES=kitty|iterm|blocks|none` decides when set. Otherwise only a terminal that names itself
    /// gets a graphics protocol, and never inside tmux or screen, which do not pass the escapes through.
    public static func detect(environment: [String: String]) -> PictureMode {
        let value = { (name: String) in environment[name] ?? "" }
        switch value("ERRAND_PICTURES").lowercased() {
        case "kitty": return .kitty
        case "iterm", "iterm2": return .iTerm
        case "blocks": return .blocks
        case "none": return .none
        default: break
        }
        let term = value("TERM")
        if !value("TMUX").isEmpty || !value("STY").isEmpty || term.hasPrefix("screen") || term.hasPrefix("tmux") {
            return .blocks
        }
        let program = value("TERM_PROGRAM").lowercased()
        if term == "xterm-kitty" || !value("KITTY_WINDOW_ID").isEmpty || program == "kitty" { return .kitty }
        // WezTerm speaks both; its inline images are the older and more complete of the two.
        if program == "iterm.app" || program == "wezterm" || value("LC_TERMINAL").lowercased() == "iterm2" {
            return .iTerm
        }
        return .blocks
    }
}

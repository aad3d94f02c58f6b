/// A key press (or a mouse wheel step) as the browsers understand it.
public enum Key: Hashable, Sendable {
    /// A printable character.
    case character(Character)
    /// The arrow keys.
    case up, down, left, right
    /// Page Up, Page Down, Home, End.
    case pageUp, pageDown, home, end
    /// Return or Enter.
    case enter
    /// Escape on its own.
    case escape
    /// Backspace (DEL or Ctrl-H).
    case backspace
    /// Tab.
    case tab
    /// Ctrl-C, which raw mode delivers as a key instead of a signal.
    case interrupt
    /// The mouse wheel, one step.
    case wheelUp, wheelDown
}

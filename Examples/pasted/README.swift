// What the README's blocks take from the blocks before them or from the reader's app, for scripts/examples to
// compile each block as pasted. Nothing here runs.
import Errand
import Foundation

/// The app's own logger.
public func log(_ text: String) {}

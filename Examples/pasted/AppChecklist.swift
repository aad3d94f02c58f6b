// What the blocks of Errand's article "Checklist for app developers" take from the block before them, for
// scripts/examples to compile each block as pasted. Nothing here runs.
import Errand
import Foundation

/// The configuration the article's first block makes and every later block changes.
nonisolated(unsafe) public var configuration = ClientConfiguration(baseURL: URL(string: "https://example.com")!)

/// A binary min-heap: the least element first, O(log n) to add or take one, O(n) to build from many.
///
/// The jar keeps its eviction orders in two (least recently used, soonest to expire) without removing an entry that
/// changed: a changed cookie adds a new element, and the old one is skipped when it comes up (lazy deletion).
struct MinHeap<Element: Comparable>: Sendable where Element: Sendable {
    private(set) var elements: [Element] = []

    init(_ elements: [Element] = []) {
        self.elements = elements
        guard elements.count > 1 else { return }
        for index in stride(from: elements.count / 2 - 1, through: 0, by: -1) { siftDown(from: index) }
    }

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }
    /// The least element, or `nil` when empty.
    var min: Element? { elements.first }

    mutating func insert(_ element: Element) {
        elements.append(element)
        siftUp(from: elements.count - 1)
    }

    /// Removes and returns the least element.
    @discardableResult
    mutating func popMin() -> Element? {
        guard !elements.isEmpty else { return nil }
        elements.swapAt(0, elements.count - 1)
        let least = elements.removeLast()
        if !elements.isEmpty { siftDown(from: 0) }
        return least
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard elements[child] < elements[parent] else { return }
            elements.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < elements.count else { return }
            var least = left
            if left + 1 < elements.count, elements[left + 1] < elements[left] { least = left + 1 }
            guard elements[least] < elements[parent] else { return }
            elements.swapAt(least, parent)
            parent = least
        }
    }
}

import Foundation

/// A page of pictures with captions, written by ``GalleryWriter`` as a self-contained `index.html`.
public struct Gallery: Sendable, Hashable {
    /// The page's heading, as `Meals matching "pasta"`.
    public var title: String
    /// A line under the heading, as `12 meals from TheMealDB`.
    public var subtitle: String?
    /// The tool that wrote the page, named in the footer (`mealdb 1.0.0`).
    public var generator: String
    /// The cards, in order.
    public var items: [GalleryItem]

    /// Creates a gallery.
    public init(title: String, subtitle: String? = nil, generator: String, items: [GalleryItem]) {
        self.title = title
        self.subtitle = subtitle
        self.generator = generator
        self.items = items
    }
}

/// One card of a ``Gallery``: a picture, a title and a few short lines.
public struct GalleryItem: Sendable, Hashable {
    /// The card's title.
    public var title: String
    /// A secondary line (`Italian · Vegetarian`, an artist's name).
    public var subtitle: String?
    /// Short facts shown under the subtitle (a date, a medium).
    public var details: [String]
    /// A small label in the corner, as the item's id.
    public var badge: String?
    /// The picture to download into the gallery's thumbnails folder, if any.
    public var imageURL: URL?
    /// Another version of the same picture (the original of a size variant), downloaded when ``imageURL`` is not
    /// there (see ``GalleryWriter``).
    public var fallbackImageURL: URL?
    /// Where the item lives online (its page on the service), linked from the title.
    public var link: URL?

    /// Creates a card.
    public init(
        title: String, subtitle: String? = nil, details: [String] = [], badge: String? = nil, imageURL: URL? = nil,
        fallbackImageURL: URL? = nil, link: URL? = nil
    ) {
        self.title = title
        self.subtitle = subtitle
        self.details = details
        self.badge = badge
        self.imageURL = imageURL
        self.fallbackImageURL = fallbackImageURL
        self.link = link
    }
}

/// What ``GalleryWriter`` wrote.
public struct GalleryReport: Sendable, Hashable {
    /// The page.
    public var indexFile: URL
    /// Pictures downloaded into the thumbnails folder.
    public var imagesSaved: Int
    /// Pictures that could not be downloaded, neither as asked nor as their fallback (their cards show a
    /// placeholder).
    public var imagesFailed: Int
}

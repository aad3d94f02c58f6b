/// Everything one screen of a browser shows, as plain values: what ``FrameRenderer`` turns into a ``Grid``.
///
/// The apps build frames from their view models' states; rendering a frame is a pure function of it and the window
/// size, which is what the snapshot tests check.
public struct Frame: Hashable, Sendable {
    /// The app's name in the title bar, as `mealdb`.
    public var title: String
    /// Where the data comes from, at the title bar's right.
    public var source: String
    /// The search field's label, as `Search the Met`.
    public var searchLabel: String
    /// The text in the search field.
    public var query: String
    /// Whether the search field has the focus (a cursor shows in it).
    public var searchFocused: Bool
    /// What the page shows, as `Meals matching “pasta”`.
    public var heading: String
    /// A line under the heading's right end, as a fetch's progress.
    public var progress: String?
    /// The page.
    public var body: Body
    /// Whether the key help is shown over the page.
    public var showsHelp: Bool
    /// The frame of the loading spinner.
    public var tick: Int
    /// How many colours the terminal shows (pictures need colour).
    public var colors: ColorDepth
    /// How pictures are drawn; the loop sets the terminal's (the apps need not know).
    public var pictures: PictureMode

    /// Creates a frame.
    public init(
        title: String, source: String, searchLabel: String, query: String, searchFocused: Bool, heading: String,
        progress: String? = nil, body: Body, showsHelp: Bool = false, tick: Int = 0, colors: ColorDepth = .trueColor,
        pictures: PictureMode = .blocks
    ) {
        self.title = title
        self.source = source
        self.searchLabel = searchLabel
        self.query = query
        self.searchFocused = searchFocused
        self.heading = heading
        self.progress = progress
        self.body = body
        self.showsHelp = showsHelp
        self.tick = tick
        self.colors = colors
        self.pictures = pictures
    }

    /// A page's content.
    public enum Body: Hashable, Sendable {
        /// Rows to pick from; the status, when there is one, shows under the rows.
        case list(ListBody)
        /// A page of text (a meal, an object), scrolled.
        case text(TextBody)
        /// Nothing to show but where the load stands.
        case status(Status)
    }

    /// Where a page's data stands when there is nothing (or not everything) to show yet.
    public enum Status: Hashable, Sendable {
        /// On its way, with what is being loaded.
        case loading(String)
        /// Loaded, and there is nothing.
        case empty(String)
        /// Failed, with the sentence for the user; `r` retries.
        case failed(String)
        /// Nothing asked for yet: a hint.
        case hint(String)
    }
}

/// A list of rows, each with an optional picture.
public struct ListBody: Hashable, Sendable {
    /// The rows.
    public var rows: [Row]
    /// The selected row.
    public var selection: Int
    /// Whether rows have room for a thumbnail.
    public var showsPictures: Bool
    /// A status under the rows (a search still filling the list, or one that failed part-way).
    public var status: Frame.Status?

    /// Creates a list.
    public init(rows: [Row], selection: Int, showsPictures: Bool, status: Frame.Status? = nil) {
        self.rows = rows
        self.selection = selection
        self.showsPictures = showsPictures
        self.status = status
    }

    /// One row.
    public struct Row: Hashable, Sendable {
        /// The main line.
        public var title: String
        /// A secondary line (or the right column without pictures).
        public var subtitle: String
        /// The row's thumbnail; `nil` for rows that have none (a category without pictures).
        public var picture: PictureSlot?

        /// Creates a row.
        public init(title: String, subtitle: String = "", picture: PictureSlot? = nil) {
            self.title = title
            self.subtitle = subtitle
            self.picture = picture
        }
    }
}

/// A page of text: a picture and facts at the top, then sections.
public struct TextBody: Hashable, Sendable {
    /// The title.
    public var title: String
    /// The line under the title.
    public var subtitle: String
    /// The picture; `nil` when the item has none.
    public var picture: PictureSlot?
    /// What shows under the top of the page, never wrapped, when there is no picture (the object's page address).
    public var pictureNote: String?
    /// Label and value pairs beside the picture.
    public var facts: [Fact]
    /// The sections below.
    public var sections: [Section]
    /// The first line shown.
    public var scroll: Int

    /// Creates a text page.
    public init(
        title: String, subtitle: String = "", picture: PictureSlot? = nil, pictureNote: String? = nil,
        facts: [Fact] = [], sections: [Section] = [], scroll: Int = 0
    ) {
        self.title = title
        self.subtitle = subtitle
        self.picture = picture
        self.pictureNote = pictureNote
        self.facts = facts
        self.sections = sections
        self.scroll = scroll
    }

    /// A label and its value.
    public struct Fact: Hashable, Sendable {
        /// The label, as `Category`.
        public var label: String
        /// The value.
        public var value: String

        /// Creates a fact.
        public init(_ label: String, _ value: String) {
            self.label = label
            self.value = value
        }
    }

    /// A titled part of the page.
    public struct Section: Hashable, Sendable {
        /// The heading.
        public var heading: String
        /// The content.
        public var content: Content

        /// Creates a section.
        public init(_ heading: String, _ content: Content) {
            self.heading = heading
            self.content = content
        }

        /// A section's content.
        public enum Content: Hashable, Sendable {
            /// Rows of columns, the first column right-aligned (a measure before its ingredient).
            case table([[String]])
            /// Text wrapped to the window.
            case paragraph(String)
            /// Label and value pairs, values never wrapped (links stay whole).
            case links([Fact])
        }
    }
}

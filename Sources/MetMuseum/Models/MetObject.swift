import Foundation

/// One object of the Metropolitan Museum of Art's collection, as `objects/{id}` describes it.
///
/// The Met's empty strings are `nil` here and its `null` lists are empty. Images are present only for public-domain
/// objects. ``objectEndDate`` can be earlier than ``objectBeginDate`` in the Met's data; ``dateRange`` puts them in
/// order. Encodes to the Met's field names (`objectID`, `primaryImage`, …, `galleryNumber`, `metadataDate`), writing
/// `null` for missing values; decodes both the Met's raw shape and that encoded one.
public struct MetObject: Sendable, Hashable, Identifiable {
    /// The object's ID, the Met's `objectID`.
    public var objectID: Int
    /// Whether the museum counts it among its highlights.
    public var isHighlight: Bool
    /// Whether it is public domain, and so has images (`isPublicDomain`).
    public var isPublicDomain: Bool
    /// The accession number, as `1979.486.1`.
    public var accessionNumber: String?
    /// The year it was acquired, as text (`1979`).
    public var accessionYear: String?

    /// The full-size image (public-domain objects only).
    public var primaryImage: URL?
    /// A web-sized version of ``primaryImage``.
    public var primaryImageSmall: URL?
    /// Further full-size images.
    public var additionalImages: [URL]

    /// The object's title.
    public var title: String?
    /// What kind of object it is, as `Painting`, `Amulet, Cat`.
    public var objectName: String?
    /// The curatorial department's name.
    public var department: String?
    /// The culture it comes from, as `Japan`.
    public var culture: String?
    /// The period, as `Edo period (1615–1868)`.
    public var period: String?
    /// The dynasty, as `Dynasty 26–29`.
    public var dynasty: String?
    /// The reign, when recorded.
    public var reign: String?
    /// The set of works it belongs to, when recorded.
    public var portfolio: String?
    /// The classification, as `Paintings`.
    public var classification: String?

    /// Everyone who made or took part in making it.
    public var constituents: [Constituent]
    /// A word the museum puts before the main artist's name, as `Attributed to`, `Workshop of`.
    public var artistPrefix: String?
    /// The main artist's name as displayed.
    public var artistDisplayName: String?
    /// A word the museum puts after the main artist's name, as `and workshop`.
    public var artistSuffix: String?
    /// The main artist's name as sorted in an index, family name first, as `Longacre, James Barton`.
    public var artistAlphaSort: String?
    /// The main artist's role, as `Artist`, `Maker`.
    public var artistRole: String?
    /// The main artist's nationality and life dates, as `Japanese, 1643–1682`.
    public var artistDisplayBio: String?
    /// The main artist's nationality.
    public var artistNationality: String?
    /// The main artist's birth year, as text (the Met uses `9999` as the end for the living).
    public var artistBeginDate: String?
    /// The main artist's death year, as text.
    public var artistEndDate: String?
    /// The main artist's gender, when recorded.
    public var artistGender: String?
    /// The main artist's Wikidata entry.
    public var artistWikidataURL: URL?
    /// The main artist's Getty ULAN entry.
    public var artistULANURL: URL?

    /// The date as the museum writes it, as `ca. 1890` or `664–380 B.C.`.
    public var objectDate: String?
    /// The earliest year of ``objectDate`` (negative for B.C.).
    public var objectBeginDate: Int
    /// The latest year of ``objectDate``; the Met sometimes records it before ``objectBeginDate``.
    public var objectEndDate: Int

    /// Materials and technique, as `Oil on canvas`.
    public var medium: String?
    /// Dimensions as the museum writes them.
    public var dimensions: String?
    /// Dimensions as numbers, per measured element.
    public var measurements: [ObjectMeasurement]
    /// How the museum acquired it.
    public var creditLine: String?

    /// How the place relates to the object, as `Made in`, `From`.
    public var geographyType: String?
    /// City of origin.
    public var city: String?
    /// State of origin.
    public var state: String?
    /// County of origin.
    public var county: String?
    /// Country of origin.
    public var country: String?
    /// Region of origin.
    public var region: String?
    /// Subregion of origin.
    public var subregion: String?
    /// Locale of origin.
    public var locale: String?
    /// Locus of origin.
    public var locus: String?
    /// Excavation it was found in.
    public var excavation: String?
    /// River near its origin.
    public var river: String?

    /// Rights and reproduction note.
    public var rightsAndReproduction: String?
    /// A related web resource.
    public var linkResource: String?
    /// When the Met last updated this record.
    public var metadataDate: Date?
    /// The holding institution.
    public var repository: String?
    /// The object's page on metmuseum.org.
    public var objectURL: URL?
    /// Subject keywords.
    public var tags: [ObjectTag]
    /// The object's Wikidata entry.
    public var objectWikidataURL: URL?
    /// Whether it appears in the Heilbrunn Timeline of Art History.
    public var isTimelineWork: Bool
    /// The gallery it is shown in; `nil` when it is not on view.
    public var galleryNumber: String?

    /// Creates an object with an ID and whatever else is given.
    public init(
        objectID: Int, title: String? = nil, artistDisplayName: String? = nil, isPublicDomain: Bool = false,
        primaryImage: URL? = nil, primaryImageSmall: URL? = nil
    ) {
        self.objectID = objectID
        self.isHighlight = false
        self.isPublicDomain = isPublicDomain
        self.primaryImage = primaryImage
        self.primaryImageSmall = primaryImageSmall
        self.additionalImages = []
        self.title = title
        self.constituents = []
        self.artistDisplayName = artistDisplayName
        self.objectBeginDate = 0
        self.objectEndDate = 0
        self.measurements = []
        self.tags = []
        self.isTimelineWork = false
    }

    /// The object's years in order, whichever way the Met recorded them.
    public var dateRange: ClosedRange<Int> {
        min(objectBeginDate, objectEndDate)...max(objectBeginDate, objectEndDate)
    }

    /// The best image to show in a list: the small one, else the full one; `nil` when not public domain.
    public var thumbnail: URL? { primaryImageSmall ?? primaryImage }

    /// Whether it is on view in a gallery.
    public var isOnView: Bool { galleryNumber != nil }
}

import Foundation
import MealDB
import MetMuseum

@testable import TerminalUI

/// Values the snapshot tests render: written for these tests, in the SDKs' shapes.
enum Samples {
    static let categories = [
        MealCategory(id: "1", name: "Beef"), MealCategory(id: "2", name: "Dessert"),
        MealCategory(id: "3", name: "Pasta"),
    ]
    static let areas: [Area] = ["Italian", "Japanese"]

    static let meals = [
        Meal(
            id: "52771", name: "Spicy Arrabiata Penne", category: "Vegetarian", area: "Italian",
            thumbnail: URL(string: "http://127.0.0.1/images/media/meals/penne.png")),
        Meal(
            id: "52772", name: "Teriyaki Chicken 寿司 Casserole", category: "Chicken", area: "Japanese",
            thumbnail: URL(string: "http://127.0.0.1/images/media/meals/teriyaki.png")),
        Meal(id: "52773", name: "Crème brûlée", category: "Dessert", area: "French"),
    ]

    static let meal = Meal(
        id: "52771", name: "Spicy Arrabiata Penne", alternateName: "Penne all'arrabbiata", category: "Vegetarian",
        area: "Italian",
        instructions: """
            Bring a large pot of water to a boil. Add kosher salt to the boiling water, then add the pasta. Cook \
            according to the package instructions, about 9 minutes.
            In a large skillet over medium-high heat, add the olive oil and heat until the oil starts to shimmer. \
            Add the garlic and cook, stirring, until fragrant, 1 to 2 minutes.
            """,
        thumbnail: URL(string: "http://127.0.0.1/images/media/meals/penne.png"), tags: ["Pasta", "Curry"],
        youtube: URL(string: "https://www.youtube.com/watch?v=1IszT_guI08"),
        source: URL(string: "https://example.org/arrabiata"),
        ingredients: [
            MealIngredient(name: "penne rigate", measure: "1 pound"),
            MealIngredient(name: "olive oil", measure: "1/4 cup"),
            MealIngredient(name: "garlic", measure: "3 cloves"), MealIngredient(name: "Parmigiano-Reggiano"),
        ])

    static let departments = [
        Department(id: 1, displayName: "American Decorative Arts"),
        Department(id: 11, displayName: "European Paintings"),
    ]

    static func object(_ id: Int, title: String, publicDomain: Bool = true) -> MetObject {
        let image = publicDomain ? "http://127.0.0.1/CRDImages/ep/web-large/\(id).jpg" : ""
        let json = """
            {"objectID": \(id), "isHighlight": false, "isPublicDomain": \(publicDomain), "primaryImage": "\(image)",
             "primaryImageSmall": "\(image)", "additionalImages": [], "title": "\(title)", "objectName": "Painting",
             "department": "European Paintings", "artistDisplayName": "Maren Holt", "artistDisplayBio": "Dutch, 1851–1903",
             "objectDate": "1887", "objectBeginDate": 1887, "objectEndDate": 1887, "medium": "Oil on canvas",
             "dimensions": "65.1 x 54 cm", "creditLine": "Rogers Fund, 1921", "constituents": [{"constituentID": 1,
             "role": "Artist", "name": "Maren Holt", "constituentULAN_URL": "", "constituentWikidata_URL": "", "gender": ""}],
             "tags": null, "measurements": null, "objectURL": "https://www.metmuseum.org/art/collection/search/\(id)",
             "accessionNumber": "41.17", "accessionYear": "1941", "culture": "", "period": "", "dynasty": "", "reign": "",
             "portfolio": "", "classification": "Paintings", "artistRole": "Artist", "artistPrefix": "", "artistSuffix": "",
             "artistAlphaSort": "", "artistNationality": "Dutch", "artistBeginDate": "1851", "artistEndDate": "1903",
             "artistGender": "", "artistWikidata_URL": "", "artistULAN_URL": "", "city": "", "state": "", "county": "",
             "country": "", "region": "", "subregion": "", "locale": "", "locus": "", "excavation": "", "river": "",
             "geographyType": "", "rightsAndReproduction": "", "linkResource": "", "metadataDate": "2024-01-05T04:48:12.58Z",
             "repository": "Metropolitan Museum of Art, New York, NY", "objectWikidata_URL": "", "isTimelineWork": false,
             "GalleryNumber": "825"}
            """
        // Written for the tests in the service's shape: a failure here is a test bug.
        return try! JSONDecoder().decode(MetObject.self, from: Data(json.utf8))
    }

    /// A 16×16 picture: a blue sky over a green field.
    static let picture: Picture = {
        var pixels: [UInt8] = []
        for y in 0..<16 { for _ in 0..<16 { pixels += y < 8 ? [40, 90, 200] : [30, 160, 60] } }
        return Picture(width: 16, height: 16, pixels: pixels)!
    }()

    /// Pictures that have arrived (the sample picture for every URL).
    static func arrived(_ url: URL?) -> PictureSlot { url == nil ? .unavailable : .ready(picture) }
    /// Pictures still on their way.
    static func loading(_ url: URL?) -> PictureSlot { url == nil ? .unavailable : .loading }
}

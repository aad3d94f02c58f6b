import Errand
import ErrandTesting
import Foundation
import TestSupport
import MealDB

/// A MealDB client on a stub transport.
func stubClient(
    _ stub: StubTransport, apiKey: String = "1", clock: any Clock<Duration> = ContinuousClock()
) -> MealDBClient {
    MealDBClient(
        apiKey: apiKey,
        client: APIClient(
            configuration: ClientConfiguration(
                baseURL: URL(string: "https://meals.example")!, transport: stub, clock: clock)))
}

/// A JSON body with one meal per id and name.
func mealsJSON(_ meals: [(id: String, name: String)]) -> String {
    let items = meals.map { meal in
        #"{"idMeal":"\#(meal.id)","strMeal":"\#(meal.name)","strCategory":"Pasta","strArea":"Italian","strInstructions":"Cook.","strMealThumb":"https://meals.example/a.png","strTags":"Pasta,","strIngredient1":"Penne","strMeasure1":"1 pound"}"#
    }
    return #"{"meals":[\#(items.joined(separator: ","))]}"#
}

let summariesJSON =
    #"{"meals":[{"idMeal":"52772","strMeal":"Teriyaki Chicken","strMealThumb":"https://meals.example/t.png"}]}"#

/// The query value of a recorded request.
func queryValue(_ request: TransportRequest, _ name: String) -> String? {
    URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == name }?.value
}

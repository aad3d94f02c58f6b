import Errand
import Foundation
import MetMuseum
import Testing
import TestSupport

/// Every endpoint and filter against the replica over real HTTP, checked from what the server received.
@Suite("Met endpoints on the replica", .enabled(if: TestServer.replica.isUsable))
struct ReplicaEndpointTests {
    @Test("search sends every filter encoded, q last, and gets the filtered IDs")
    func searchWithEveryFilter() async throws {
        let replica = try ReplicaClient()
        let query = SearchQuery(
            "sunflowers", fields: [.title], isHighlight: true, isOnView: true, hasImages: true, departmentID: 11,
            media: ["Oil", "Silk"], geoLocations: ["France", "United States"], dateBegin: 1850, dateEnd: 1900)
        let found = try await replica.met.search(query)
        #expect(found.ids == [7001])
        let sent = try #require(try await replica.requests().last)
        #expect(sent.path == "/public/collection/v1/search")
        #expect(
            sent.query == "isHighlight=true&title=true&isOnView=true&hasImages=true&departmentId=11"
                + "&medium=Oil%7CSilk&geoLocation=France%7CUnited%20States&dateBegin=1850&dateEnd=1900&q=sunflowers")
        #expect(sent.queryNames.last == "q")
    }

    @Test(
        "each filter narrows the search on its own",
        arguments: [
            (SearchQuery("cat", fields: [.tags]), [7012, 7013, 7014, 7015, 7016]),
            (SearchQuery("holt", fields: [.artistOrCulture]), [7001, 7003, 7046]),
            (SearchQuery("sunflowers", isHighlight: true), [7001, 7005, 7042]),
            (SearchQuery("cat", isOnView: true), [7012, 7013, 7015]),
            (SearchQuery("sunflowers", hasImages: true, departmentID: 21), []),
            (SearchQuery("sunflowers", departmentID: 21), [7010, 7038]),
            (SearchQuery("quilt", media: ["Cotton"]), [7005, 7020]),
            (SearchQuery("sunflowers", geoLocations: ["Japan", "Norway"]), [7009, 7036, 7045]),
            (SearchQuery("sunflowers", dateBegin: 1600, dateEnd: 1700), [7011]),
            (SearchQuery("armor", fields: [.title]), [7017]),
        ])
    func singleFilters(query: SearchQuery, expected: [Int]) async throws {
        let replica = try ReplicaClient()
        let found = try await replica.met.search(query)
        #expect(found.ids == expected)
        #expect(found.total == expected.count)
        #expect(try await replica.requests().last?.queryNames.last == "q")
    }

    @Test("an empty search and a search without matches give no IDs, not an error")
    func emptySearch() async throws {
        let replica = try ReplicaClient()
        #expect(try await replica.met.search(SearchQuery("")) == ObjectIDList(total: 0, ids: []))
        #expect(try await replica.met.search(SearchQuery("zeppelin")).isEmpty)
    }

    @Test("search results include IDs the collection does not serve, as the Met's do")
    func ghostsInResults() async throws {
        let found = try await ReplicaClient().met.search(SearchQuery("sunflowers"))
        #expect(found.ids.count == 24)
        #expect(found.ids.contains(ReplicaIDs.missing) && found.ids.contains(ReplicaIDs.notValid))
    }

    @Test("an invalid search fails before any request")
    func invalidSearchSendsNothing() async throws {
        let replica = try ReplicaClient()
        await #expect {
            try await replica.met.search(SearchQuery("x", dateBegin: 1700))
        } throws: { error in
            if case .invalidQuery = error as? MetError { return true }
            return false
        }
        #expect(try await replica.requests().isEmpty)
    }

    @Test("one object, in full, with images on the replica")
    func object() async throws {
        let replica = try ReplicaClient()
        let object = try await replica.met.object(id: 7001)
        #expect(object.title == "Sunflowers in a Blue Jug")
        #expect(object.artistDisplayName == "Maren Holt")
        #expect(object.constituents.first?.role == "Artist")
        #expect(object.tags.map(\.term) == ["Sunflowers", "Still Life"])
        #expect(object.isHighlight && object.isPublicDomain && object.galleryNumber == "825")
        let image = try #require(object.primaryImageSmall)
        #expect(image.host == replica.base.host && image.port == replica.base.port)
        let jpeg = try await APIClient(baseURL: replica.base).send(Request<Data>(url: image)).value
        #expect(image.pathExtension == "jpg" && jpeg.starts(with: [0xFF, 0xD8, 0xFF]), "a JPEG, as the Met serves")
        #expect(try await replica.requests().first?.path == "/public/collection/v1/objects/7001")
    }

    @Test("the replica's quirks: reversed dates, null lists, no images unless public domain")
    func quirks() async throws {
        let met = try ReplicaClient().met
        let amulet = try await met.object(id: 7012)
        #expect(amulet.objectEndDate < amulet.objectBeginDate && amulet.dateRange == -664 ... -525)
        #expect(amulet.constituents.isEmpty && amulet.artistDisplayName == nil)
        let photograph = try await met.object(id: 7006)
        #expect(!photograph.isPublicDomain && photograph.primaryImage == nil && photograph.additionalImages.isEmpty)
        let quilt = try await met.object(id: 7021)
        #expect(quilt.tags.isEmpty && quilt.measurements.isEmpty)
    }

    @Test("unknown and not-valid objects are distinct errors")
    func missingObjects() async throws {
        let met = try ReplicaClient().met
        await #expect {
            try await met.object(id: ReplicaIDs.missing)
        } throws: { error in
            if case .notFound(ReplicaIDs.missing, "ObjectID not found") = error as? MetError { return true }
            return false
        }
        await #expect {
            try await met.object(id: ReplicaIDs.notValid)
        } throws: { error in
            if case .notAvailable(ReplicaIDs.notValid, "Not a valid object") = error as? MetError { return true }
            return false
        }
        await #expect {
            try await met.object(id: 0)
        } throws: { error in
            if case .notFound(0, _) = error as? MetError { return true }
            return false
        }
    }

    @Test("departments")
    func departments() async throws {
        let departments = try await ReplicaClient().met.departments()
        #expect(departments.count == 17)
        #expect(departments.first { $0.id == 11 }?.displayName == "European Paintings")
    }

    @Test("the object list, whole and filtered by date and departments")
    func objectList() async throws {
        let replica = try ReplicaClient()
        let all = try await replica.met.objectIDs()
        #expect(all.total == 53 && all.ids.contains(7001) && all.ids.contains(ReplicaIDs.notValid))
        let since = try #require(ISO8601DateFormatter().date(from: "2024-05-01T12:00:00Z"))
        let recent = try await replica.met.objectIDs(updatedSince: since, departmentIDs: [11, 21])
        #expect(recent.ids == [7010, 7038, 7046])
        let sent = try await replica.requests().map(\.query)
        #expect(sent == ["", "metadataDate=2024-05-01&departmentIds=11%7C21"])
    }

    @Test("the ids, searches and lists the documentation and the tools' help use are on the replica")
    func documentationSamples() async throws {
        let replica = try ReplicaClient()
        let object = try await replica.met.object(id: ReplicaIDs.documented)
        #expect(object.title == "Wheat Field with Cypresses" && object.artistDisplayName == "Vincent van Gogh")
        // met search "Van Gogh" --artist-or-culture --from 1880 --to 1890
        let vanGogh = SearchQuery("Van Gogh", fields: [.artistOrCulture], dateBegin: 1880, dateEnd: 1890)
        #expect(try await replica.met.search(vanGogh).ids == [ReplicaIDs.documented])
        // met search --mirror met-mirror "bronze mirror" --from -1000 --to 1500, as the mirror holds the replica's
        #expect(
            try await replica.met.search(SearchQuery("bronze mirror", dateBegin: -1000, dateEnd: 1500)).ids == [7047])
        // met objects --since 2024-01-01 --department 1 --department 3
        let since = try #require(ISO8601DateFormatter().date(from: "2024-01-01T00:00:00Z"))
        #expect(try await replica.met.objectIDs(updatedSince: since, departmentIDs: [1, 3]).ids == [7048])
    }

    @Test(
        "a 503 carries Retry-After, one second unless the fault header names another value or none",
        arguments: [(nil, "1"), ("503; retry-after=7", "7"), ("503; retry-after=none", nil)] as [(String?, String?)])
    func unavailableSaysWhenToRetry(fault: String?, retryAfter: String?) async throws {
        let replica = try ReplicaClient(headers: fault.map { ["X-Replica-Fault": $0] } ?? [:], retry: nil)
        let id = fault == nil ? ReplicaIDs.unavailable : 7001
        await #expect {
            try await replica.met.object(id: id)
        } throws: { error in
            guard case .serviceUnavailable(let failure) = error as? MetError else { return false }
            return failure.status == 503 && failure.headers["Retry-After"] == retryAfter
        }
        #expect(try await replica.requests().count == 1)
    }

    @Test("a 403 HTML page is 'blocked' and is not retried")
    func blocked() async throws {
        let replica = try ReplicaClient()
        await #expect {
            try await replica.met.object(id: ReplicaIDs.blocked)
        } throws: { error in
            guard case .blocked = error as? MetError else { return false }
            return (error as? MetError)?.userMessage.contains("wait") == true
        }
        await #expect {
            try await replica.met.search(SearchQuery("__blocked__"))
        } throws: { error in
            if case .blocked = error as? MetError { return true }
            return false
        }
        #expect(try await replica.requests().count == 2)
    }

    @Test("503 is retried, then reported as the service being unavailable")
    func unavailable() async throws {
        let replica = try ReplicaClient()
        await #expect {
            try await replica.met.object(id: ReplicaIDs.unavailable)
        } throws: { error in
            if case .serviceUnavailable(let failure) = error as? MetError { return failure.status == 503 }
            return false
        }
        #expect(try await replica.requests().count == 3)
    }

    @Test("a 503 that passes is recovered by the retries")
    func transientOutage() async throws {
        let key = UUID().uuidString
        let replica = try ReplicaClient(headers: ["X-Replica-Fault": "503; count=2; key=\(key)"])
        #expect(try await replica.met.departments().count == 17)
        #expect(try await replica.requests().count == 3)
    }
}

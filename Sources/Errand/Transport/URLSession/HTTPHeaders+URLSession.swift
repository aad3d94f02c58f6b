import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension HTTPHeaders {
    /// The fields of a URLSession response, with the `Set-Cookie` lines URLSession joined taken apart again.
    ///
    /// `HTTPURLResponse.allHeaderFields` (Apple's and FoundationNetworking's) joins a field's repeated lines into one
    /// value with commas, which for `Set-Cookie` runs cookies together; this is the one place Errand knows a join
    /// happened, so it separates them here (``SetCookie/values(in:)``) and every other part of Errand reads each
    /// `Set-Cookie` field as one cookie, as curl hands them over.
    init(urlSessionResponse http: HTTPURLResponse) {
        self.init()
        for (name, value) in http.allHeaderFields {
            guard let name = name as? String, let value = value as? String else { continue }
            guard name.caseInsensitiveEquals("Set-Cookie") else {
                add(name: name, value: value)
                continue
            }
            for cookie in SetCookie.values(in: value) { add(name: name, value: cookie) }
        }
    }
}

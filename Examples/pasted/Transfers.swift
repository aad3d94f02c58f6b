// What the blocks of Errand's article "Uploads, downloads and event streams" take from the blocks before them or
// from the reader's app, for scripts/examples to compile each block as pasted. Nothing here runs.
import Errand
import Foundation

/// The reader's client.
public let client = APIClient(baseURL: URL(string: "https://api.example.com/v1")!)

/// The files and values the upload, download and curl-command blocks name.
public let photoURL = URL(fileURLWithPath: "/tmp/photo.jpg")
public let thumbnail = Data()
public let video = URL(fileURLWithPath: "/tmp/video.mp4")
public let isoURL = URL(string: "https://example.com/image.iso")!
public let destination = URL(fileURLWithPath: "/tmp/image.iso")
public let apiKey = "k3y"
public struct Item: Encodable, Sendable { public var name: String }
public let item = Item(name: "it's")

/// The requests the task-group block sends.
public let requests = [Request<Data>(path: "a"), Request<Data>(path: "b")]

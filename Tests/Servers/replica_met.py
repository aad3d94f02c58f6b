"""The Met Collection API part of the replica (see replica.py): paths under /public/collection/v1/ and the images.

Serves the project's own sample collection (data/met/objects.json, data/met/departments.json) in the real
service's shape and with its quirks:

- GET /public/collection/v1/objects[?metadataDate=YYYY-MM-DD&departmentIds=1|3]  -> {"total", "objectIDs"}
- GET /public/collection/v1/objects/{id}  -> the object; 404 {"message":"ObjectID not found"} for unknown ids,
  404 {"message":"Not a valid object"} for the loan ids, 400 {"message":"could not parse objectID"} for a non-number
- GET /public/collection/v1/departments    -> {"departments":[{"departmentId","displayName"}]}
- GET /public/collection/v1/search?...&q=  -> {"total", "objectIDs"}; no match or an empty q gives
  {"total":0,"objectIDs":null}. Filters: isHighlight, title, tags, isOnView, artistOrCulture, hasImages (each
  "true"), departmentId, medium and geoLocation ("|"-joined alternatives), dateBegin with dateEnd. As on the real
  service, q must be the last parameter: when it is not, every filter is ignored and the results are wrong.
- GET /CRDImages/{dept}/{original|web-large}/{id}[_{n}].jpg -> a small generated JPEG, as the real service serves
  (public-domain objects only; `.png` gives the same picture as PNG); objects' image fields point here, on the host
  the request named. With POST /__settings?size_variants=missing (see
  replica.py) every web-large image answers 404, and only the originals are there.

Search results contain ids the collection does not serve ("ghosts"), as the real index does: 7404 and 7412 answer
404 "ObjectID not found", 7410 and 7411 "Not a valid object". A search for "sunflowers" meets 7404 and 7410 within
its first ten ids.

Fault mode (deterministic):
- object id 9403, or search q "__blocked__": 403 with an HTML bot-protection page;
- object id 9422: 200 application/json that is cut off mid-object; search q "__malformed__" finds 7001 and 9422;
- object id 9503, or search q "__unavailable__": 503;
- object id 9413: 200 application/json of 17,000,000 bytes, over the SDK's 16 MB body limit (a valid object padded
  with spaces); search q "__oversized__" finds 7001, 9413 and 7002;
- header `X-Replica-Fault: 403` or `503` on any request: that answer, every time;
  `X-Replica-Fault: 503; count=N; key=K`: the first N requests carrying key K (per path) get 503, later ones succeed;
- every 503 carries `Retry-After: 1`, as the real service's outage page does; `X-Replica-Fault: 503; retry-after=S`
  sends S instead (`retry-after=none` leaves the header out);
- header `X-Replica-Rate-Limit: N`: more than N requests carrying that header within one second get the 403 page,
  as the real service's bot protection does above ~80 requests per second.
"""
import json
import os
import struct
import threading
import time
import zlib
from urllib.parse import parse_qsl

import jpeg

PREFIX = "/public/collection/v1/"
IMAGES = "/CRDImages/"
DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "met")

BLOCKED_ID, UNAVAILABLE_ID, MALFORMED_ID, OVERSIZED_ID = 9403, 9503, 9422, 9413
BLOCKED_TERM, UNAVAILABLE_TERM, MALFORMED_TERM = "__blocked__", "__unavailable__", "__malformed__"
OVERSIZED_TERM, OVERSIZED_BYTES = "__oversized__", 17_000_000
# Seconds a 503 asks the client to wait: short enough for a test's retries, and a value a client must honour.
RETRY_AFTER = "1"

BOT_PAGE = """<!DOCTYPE html>
<html><head><title>Access denied</title></head>
<body><h1>Access denied</h1>
<p>This request was blocked by our bot protection because of unusual traffic from your network.
Please wait a while before trying again.</p></body></html>
"""
UNAVAILABLE_PAGE = """<!DOCTYPE html>
<html><head><title>503 Service Unavailable</title></head>
<body><h1>Service Unavailable</h1><p>The collection service is temporarily unavailable.</p></body></html>
"""

DEPARTMENT_CODES = {1: "ad", 3: "an", 4: "aa", 5: "ao", 6: "as", 7: "md", 8: "ci", 9: "dp", 10: "eg", 11: "ep",
                    12: "es", 13: "gr", 14: "is", 17: "md", 18: "mi", 19: "ph", 21: "ma"}
CREDIT_LINES = ["Gift of the Harlow Family, 1957", "Rogers Fund, 1921", "Bequest of Edith Carver, 1984",
                "Purchase, Friends of the Department Gifts, 2003", "The Collection of Samuel Pell, 1975"]


def _load(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return json.load(f)


_COLLECTION = _load("objects.json")
DEPARTMENTS = _load("departments.json")
_DEPARTMENT_NAMES = {d["departmentId"]: d["displayName"] for d in DEPARTMENTS["departments"]}
_RECORDS = {r["id"]: r for r in _COLLECTION["objects"]}
_GHOSTS = {g["id"]: g for g in _COLLECTION["ghosts"]}
_GHOST_POSITIONS = {7404: 2, 7410: 5, 7411: 1, 7412: 1}

_FAULT_LOCK = threading.Lock()
_FAULT_COUNTS = {}
_RATE_WINDOWS = {}


def handles(path):
    return path.startswith(PREFIX) or path.startswith(IMAGES)


def handle(handler, path, query):
    params = parse_qsl(query, keep_blank_values=True)
    if _fault(handler, path):
        return
    if path.startswith(IMAGES):
        return _image(handler, path)
    route = path[len(PREFIX):].strip("/")
    if route == "departments":
        return handler.send_json(200, DEPARTMENTS)
    if route == "objects":
        return _object_list(handler, params)
    if route.startswith("objects/"):
        return _object(handler, route[len("objects/"):])
    if route == "search":
        return _search(handler, params)
    handler.send_json(404, {"message": "Not Found"})


# MARK: Faults

def _fault(handler, path):
    """Answers the header-driven faults; returns True when it answered."""
    limit = handler.headers.get("X-Replica-Rate-Limit")
    if limit and _over_rate(limit.strip()):
        handler.send_body(403, BOT_PAGE, "text/html; charset=utf-8")
        return True
    spec = handler.headers.get("X-Replica-Fault")
    if not spec:
        return False
    parts = [p.strip() for p in spec.split(";")]
    status = parts[0]
    options = dict(p.split("=", 1) for p in parts[1:] if "=" in p)
    if "count" in options:
        counter = (options.get("key", ""), path)
        with _FAULT_LOCK:
            seen = _FAULT_COUNTS.get(counter, 0)
            _FAULT_COUNTS[counter] = seen + 1
        if seen >= int(options["count"]):
            return False
    return _send_fault(handler, status, options.get("retry-after", RETRY_AFTER))


def _send_fault(handler, status, retry_after=None):
    if status == "403":
        handler.send_body(403, BOT_PAGE, "text/html; charset=utf-8")
        return True
    if status == "503":
        retry_after = retry_after or RETRY_AFTER
        headers = {} if retry_after == "none" else {"Retry-After": retry_after}
        handler.send_body(503, UNAVAILABLE_PAGE, "text/html; charset=utf-8", headers)
        return True
    return False


def _over_rate(limit):
    try:
        allowed = int(limit)
    except ValueError:
        return False
    now = time.monotonic()
    with _FAULT_LOCK:
        window = [t for t in _RATE_WINDOWS.get(limit, []) if now - t < 1.0]
        window.append(now)
        _RATE_WINDOWS[limit] = window
        return len(window) > allowed


# MARK: Objects

def _object(handler, raw_id):
    if not raw_id.isdigit():
        return handler.send_json(400, {"message": "could not parse objectID"})
    object_id = int(raw_id)
    if object_id == BLOCKED_ID:
        return _send_fault(handler, "403")
    if object_id == UNAVAILABLE_ID:
        return _send_fault(handler, "503")
    if object_id == MALFORMED_ID:
        return handler.send_body(200, b'{"objectID": 9422, "title": "Cut off', "application/json")
    if object_id == OVERSIZED_ID:
        head = b'{"objectID": 9413, "title": "Oversized"}'
        return handler.send_body(200, head + b" " * (OVERSIZED_BYTES - len(head)), "application/json")
    record = _RECORDS.get(object_id)
    if record is None:
        ghost = _GHOSTS.get(object_id)
        if ghost is not None and ghost["kind"] == "invalid":
            return handler.send_json(404, {"message": "Not a valid object"})
        return handler.send_json(404, {"message": "ObjectID not found"})
    handler.send_json(200, _expand(record, _origin(handler)))


def _object_list(handler, params):
    args = dict(params)
    ids = [r["id"] for r in _COLLECTION["objects"]]
    if "metadataDate" in args:
        date = args["metadataDate"]
        if len(date) != 10 or date[4] != "-" or date[7] != "-":
            return handler.send_json(400, {"message": "metadataDate must be YYYY-MM-DD"})
        ids = [i for i in ids if _RECORDS[i]["metadataDate"][:10] >= date]
    if "departmentIds" in args:
        wanted = {int(d) for d in args["departmentIds"].split("|") if d.strip().isdigit()}
        ids = [i for i in ids if _RECORDS[i]["dept"] in wanted]
    elif "metadataDate" not in args:
        ids = sorted(ids + list(_GHOSTS))
    handler.send_json(200, {"total": len(ids), "objectIDs": ids})


def _origin(handler):
    return "http://" + handler.headers.get("Host", "127.0.0.1")


def _expand(r, origin):
    """The full object in the real service's shape (key order included)."""
    artist = r.get("artist")
    code = DEPARTMENT_CODES.get(r["dept"], "xx")
    public = r["publicDomain"]
    image = f"{origin}{IMAGES}{code}/original/{r['id']}.jpg" if public else ""
    small = f"{origin}{IMAGES}{code}/web-large/{r['id']}.jpg" if public else ""
    extra = [f"{origin}{IMAGES}{code}/original/{r['id']}_{n}.jpg" for n in range(1, r["id"] % 3 + 1)] if public else []
    vocabulary = _COLLECTION["vocabulary"]
    tags = None
    if r.get("tags") is not None:
        tags = []
        for term in r["tags"]:
            aat, wikidata = vocabulary.get(term, [None, None])
            tag = {"term": term, "AAT_URL": f"http://vocab.getty.edu/page/aat/{aat}" if aat else ""}
            if wikidata:
                tag["Wikidata_URL"] = f"https://www.wikidata.org/wiki/{wikidata}"
            tags.append(tag)
    measurements = None
    if r.get("measurements") is not None:
        measurements = [{"elementName": name, "elementDescription": description, "elementMeasurements": values}
                        for name, description, values in r["measurements"]]
    year = 1900 + r["id"] % 120
    a = artist or {}
    ulan = f"http://vocab.getty.edu/page/ulan/5000{a['id']}" if artist else ""
    wikidata = f"https://www.wikidata.org/wiki/Q{a['id'] * 7}" if artist and a["id"] % 2 else ""
    constituents = None
    if artist:
        constituents = [{"constituentID": a["id"], "role": a["role"], "name": a["name"],
                         "constituentULAN_URL": ulan, "constituentWikidata_URL": wikidata, "gender": a["gender"]}]
    name_parts = a.get("name", "").split(" ")
    alpha = f"{name_parts[-1]}, {' '.join(name_parts[:-1])}" if len(name_parts) == 2 else a.get("name", "")
    return {
        "objectID": r["id"], "isHighlight": r["highlight"],
        "accessionNumber": f"{year}.{r['id'] % 97}.{r['id'] % 13 + 1}", "accessionYear": str(year),
        "isPublicDomain": public, "primaryImage": image, "primaryImageSmall": small, "additionalImages": extra,
        "constituents": constituents, "department": _DEPARTMENT_NAMES.get(r["dept"], ""),
        "objectName": r["objectName"], "title": r["title"], "culture": r.get("culture", ""),
        "period": r.get("period", ""), "dynasty": r.get("dynasty", ""), "reign": "", "portfolio": "",
        "artistRole": a.get("role", ""), "artistPrefix": a.get("prefix", ""), "artistDisplayName": a.get("name", ""),
        "artistDisplayBio": a.get("bio", ""), "artistSuffix": a.get("suffix", ""), "artistAlphaSort": alpha,
        "artistNationality": a.get("nationality", ""), "artistBeginDate": a.get("begin", ""),
        "artistEndDate": a.get("end", ""), "artistGender": a.get("gender", ""), "artistWikidata_URL": wikidata,
        "artistULAN_URL": ulan, "objectDate": r["objectDate"], "objectBeginDate": r["begin"],
        "objectEndDate": r["end"], "medium": r["medium"], "dimensions": r["dimensions"],
        "measurements": measurements, "creditLine": CREDIT_LINES[r["id"] % len(CREDIT_LINES)],
        "geographyType": r.get("geographyType", ""), "city": r.get("city", ""), "state": "", "county": "",
        "country": r.get("country", ""), "region": r.get("region", ""), "subregion": "", "locale": "", "locus": "",
        "excavation": "", "river": "", "classification": r.get("classification", ""), "rightsAndReproduction": "",
        "linkResource": "", "metadataDate": r["metadataDate"],
        "repository": "Metropolitan Museum of Art, New York, NY",
        "objectURL": f"https://www.metmuseum.org/art/collection/search/{r['id']}", "tags": tags,
        "objectWikidata_URL": "", "isTimelineWork": False, "GalleryNumber": r.get("gallery", ""),
    }


# MARK: Search

def _search(handler, params):
    names = [name for name, _ in params]
    args = dict(params)
    q = args.get("q", "").strip()
    if q == BLOCKED_TERM:
        return _send_fault(handler, "403")
    if q == UNAVAILABLE_TERM:
        return _send_fault(handler, "503")
    if q == MALFORMED_TERM:
        return handler.send_json(200, {"total": 2, "objectIDs": [7001, MALFORMED_ID]})
    if q == OVERSIZED_TERM:
        return handler.send_json(200, {"total": 3, "objectIDs": [7001, OVERSIZED_ID, 7002]})
    if not q:
        return handler.send_json(200, {"total": 0, "objectIDs": None})
    if names[-1] != "q":
        args = {"q": args["q"]}  # the real service misreads the parameters when q is not last
    filtered = any(name != "q" for name in args)
    fields = _search_fields(args)
    ids = [r["id"] for r in _COLLECTION["objects"] if _matches(q, fields(r)) and _passes(r, args)]
    if not filtered:
        ghosts = [g for g in _COLLECTION["ghosts"] if _matches(q, [g["text"]])]
        for ghost in ghosts:
            ids.insert(min(_GHOST_POSITIONS.get(ghost["id"], len(ids)), len(ids)), ghost["id"])
    if not ids:
        return handler.send_json(200, {"total": 0, "objectIDs": None})
    handler.send_json(200, {"total": len(ids), "objectIDs": ids})


def _search_fields(args):
    def artist_or_culture(r):
        return [(r.get("artist") or {}).get("name", ""), r.get("culture", "")]

    if args.get("title") == "true":
        return lambda r: [r["title"]]
    if args.get("tags") == "true":
        return lambda r: r.get("tags") or []
    if args.get("artistOrCulture") == "true":
        return artist_or_culture
    return lambda r: [r["title"], r["objectName"], r["medium"], *(r.get("tags") or []), *artist_or_culture(r)]


def _matches(q, texts):
    words = [w for w in (t.lower() for t in texts) for w in w.replace(",", " ").split()]
    for term in q.lower().split():
        stem = term[:-1] if term.endswith("s") and len(term) > 3 else term
        if not any(word.startswith(stem) for word in words):
            return False
    return True


def _passes(r, args):
    def flag(name):
        return args.get(name) == "true"

    if flag("isHighlight") and not r["highlight"]:
        return False
    if flag("isOnView") and not r.get("gallery"):
        return False
    if flag("hasImages") and not r["publicDomain"]:
        return False
    if "departmentId" in args and str(r["dept"]) != args["departmentId"]:
        return False
    if "medium" in args:
        text = " ".join([r["medium"], r["objectName"], r.get("classification", "")]).lower()
        if not any(m.strip().lower() in text for m in args["medium"].split("|")):
            return False
    if "geoLocation" in args:
        text = " ".join(r.get(k, "") for k in ("country", "city", "region", "culture")).lower()
        if not any(g.strip().lower() in text for g in args["geoLocation"].split("|")):
            return False
    if "dateBegin" in args and "dateEnd" in args:
        try:
            begin, end = int(args["dateBegin"]), int(args["dateEnd"])
        except ValueError:
            return False
        low, high = min(r["begin"], r["end"]), max(r["begin"], r["end"])
        if high < begin or low > end:
            return False
    return True


# MARK: Images

_IMAGE_CACHE = {}


def _image(handler, path):
    parts = path[len(IMAGES):].split("/")
    if len(parts) != 3 or parts[1] not in ("original", "web-large") or not parts[2].endswith((".png", ".jpg")):
        return handler.send_json(404, {"message": "Not Found"})
    if parts[1] == "web-large" and not handler.server.size_variants_served:
        return handler.send_json(404, {"message": "Not Found"})
    stem = parts[2][:-4]
    object_id = stem.split("_")[0]
    record = _RECORDS.get(int(object_id)) if object_id.isdigit() else None
    if record is None or not record["publicDomain"]:
        return handler.send_json(404, {"message": "Not Found"})
    send_picture(handler, stem, parts[1], parts[2][-3:])


def send_picture(handler, stem, variant, kind):
    """The generated picture of a file name's stem: `original` or `web-large`, as `png` or `jpg`."""
    size = (160, 120) if variant == "original" else (80, 60)
    key = (stem, size, kind)
    if key not in _IMAGE_CACHE:
        seed = sum(ord(c) * 31 for c in stem)
        _IMAGE_CACHE[key] = _png(size, seed) if kind == "png" else jpeg.encode(*size, _pixels(size, seed))
    content_type = "image/png" if kind == "png" else "image/jpeg"
    handler.send_body(200, _IMAGE_CACHE[key], content_type, {"Cache-Control": "max-age=86400"})


def _pixels(size, seed):
    """RGB bytes of a diagonal gradient in a colour derived from the seed."""
    width, height = size
    base = ((seed * 67) % 200 + 30, (seed * 131) % 200 + 30, (seed * 29) % 200 + 30)
    pixels = bytearray()
    for y in range(height):
        for x in range(width):
            shade = (x + y) * 60 // (width + height)
            pixels.extend(min(255, c + shade) for c in base)
    return bytes(pixels)


def _png(size, seed):
    """A small RGB PNG of the gradient."""
    width, height = size
    pixels = _pixels(size, seed)
    rows = bytearray()
    for y in range(height):
        rows.append(0)
        rows.extend(pixels[y * width * 3:(y + 1) * width * 3])

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")

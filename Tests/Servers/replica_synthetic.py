"""A synthetic Met collection of any size for the replica (see replica.py and replica_met.py), for mirroring at scale.

Paths are the Met's, below a prefix that names the collection: /synthetic/{size}/{seed}/{epoch}/public/collection/v1/
(objects, objects/{id}, departments, search) and /synthetic/{size}/{seed}/{epoch}/CRDImages/... for the pictures.
A client points its base URL at http://HOST/synthetic/{size}/{seed}/{epoch}. Everything is a function of the three
numbers: the same prefix always serves the same collection, so a test and a benchmark agree on what a complete
mirror holds without sharing a file.

- size: how many objects epoch 0 lists, IDs 100001, 100004, ... (step 3). One in 40 is listed but answers 404
  "Not a valid object" (loans, as on the real service), one in 97 answers "ObjectID not found" although listed.
- seed: picks each object's words, dates and flags.
- epoch: the collection's age. Each epoch k >= 1 changes about 5% of the objects (their title gains "(revised k)"
  and their metadataDate becomes day 10k after 2025-01-01), removes about 1% (no longer listed, 404), and adds
  size / 100 new objects above the epoch-0 range, dated that day too. `objects?metadataDate=` filters on those dates,
  so a mirror made at epoch 0 finds the changes of epoch 1 with the day of its newest record.

Search (q last, same filters and matching as replica_met) works over the synthetic objects too, so an offline search
can be compared with the online one.
"""
import datetime
import functools
import random
import socket
from urllib.parse import parse_qsl

import replica_met

ROOT = "/synthetic/"
START = 100001
STEP = 3
EPOCH_DAY = datetime.date(2025, 1, 1)

SUBJECTS = ["mirror", "bowl", "vase", "figure", "panel", "helmet", "box", "plate", "jar", "textile", "print",
            "drawing", "portrait", "landscape", "amulet", "ewer", "bottle", "cup", "screen", "fan"]
ADJECTIVES = ["bronze", "gilded", "carved", "painted", "lacquered", "silver", "glazed", "inlaid", "embroidered",
              "small", "large", "ceremonial", "folding", "covered", "footed"]
MOTIFS = ["phoenixes", "cranes", "lotus", "dragons", "horses", "flowers", "waves", "clouds", "lions", "cats",
          "birds", "vines", "a hunting scene", "musicians", "sunflowers", "boats"]
MEDIA = ["Bronze", "Silver", "Earthenware", "Porcelain", "Oil on canvas", "Ink on paper", "Silk", "Wood",
         "Lacquer", "Glass", "Ivory", "Gold", "Cotton", "Woodblock print; ink and color on paper"]
CULTURES = ["China", "Japan", "Iran", "Egypt", "Greek", "Roman", "French", "British", "American", "Korea", "India",
            "Peru", "Flemish", "German", ""]
PERIODS = ["Tang dynasty (618–907)", "Edo period (1615–1868)", "Late Period", "Ming dynasty (1368–1644)",
           "Archaic", "Imperial", "Joseon dynasty (1392–1910)", ""]
CLASSIFICATIONS = ["Metalwork", "Ceramics", "Paintings", "Textiles", "Prints", "Drawings", "Sculpture", "Glass",
                   "Lacquer", ""]
COUNTRIES = ["China", "Japan", "Iran", "Egypt", "Greece", "Italy", "France", "England", "United States", "Korea",
             "India", "Peru", ""]
FIRST = ["Maren", "Kenji", "Lucien", "Ida", "Nora", "Pieter", "Abigail", "Henriette", "Tomás", "Li", "Amir", "Sofia"]
LAST = ["Holt", "Arata", "Ferrand", "Brandt", "Vasquez", "van Aalst", "Marsh", "Lagarde", "Ortega", "Wen", "Karimi"]
TAGS = list(replica_met._COLLECTION["vocabulary"].keys()) + ["Phoenixes", "Dragons", "Lotus", "Mirrors"]
DEPARTMENT_IDS = [d["departmentId"] for d in replica_met.DEPARTMENTS["departments"]]


def handles(path):
    return path.startswith(ROOT)


def handle(handler, path, query):
    # Headers and body leave in two writes; without TCP_NODELAY, Nagle's algorithm meeting the client's delayed ACK
    # holds every answer for ~40 ms, which would cap a mirror at a few hundred objects a second.
    handler.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    parts = path[len(ROOT):].split("/", 3)
    if len(parts) < 4 or not all(p.isdigit() for p in parts[:3]):
        return handler.send_json(404, {"message": "synthetic paths are /synthetic/{size}/{seed}/{epoch}/..."})
    size, seed, epoch = (int(p) for p in parts[:3])
    if size > 2_000_000 or epoch > 1000:
        return handler.send_json(400, {"message": "at most 2,000,000 objects and 1000 epochs"})
    collection = _collection(size, seed, epoch)
    prefix = f"{ROOT}{size}/{seed}/{epoch}"
    rest = "/" + parts[3]
    origin = replica_met._origin(handler) + prefix
    if replica_met._fault(handler, rest):
        return
    params = parse_qsl(query, keep_blank_values=True)
    if rest.startswith(replica_met.IMAGES):
        return _image(handler, rest, collection)
    if not rest.startswith(replica_met.PREFIX):
        return handler.send_json(404, {"message": "Not Found"})
    route = rest[len(replica_met.PREFIX):].strip("/")
    if route == "departments":
        return handler.send_json(200, replica_met.DEPARTMENTS)
    if route == "objects":
        return _object_list(handler, params, collection)
    if route.startswith("objects/"):
        return _object(handler, route[len("objects/"):], collection, origin)
    if route == "search":
        return _search(handler, params, collection)
    handler.send_json(404, {"message": "Not Found"})


def _object(handler, raw_id, collection, origin):
    if not raw_id.isdigit():
        return handler.send_json(400, {"message": "could not parse objectID"})
    object_id = int(raw_id)
    if object_id in collection.invalid:
        return handler.send_json(404, {"message": "Not a valid object"})
    record = collection.records.get(object_id)
    if record is None:
        return handler.send_json(404, {"message": "ObjectID not found"})
    handler.send_json(200, replica_met._expand(record, origin))


def _object_list(handler, params, collection):
    args = dict(params)
    ids = collection.listed
    if "metadataDate" in args:
        date = args["metadataDate"]
        if len(date) != 10 or date[4] != "-" or date[7] != "-":
            return handler.send_json(400, {"message": "metadataDate must be YYYY-MM-DD"})
        ids = [i for i in ids if i in collection.records and collection.records[i]["metadataDate"][:10] >= date]
    if "departmentIds" in args:
        wanted = {int(d) for d in args["departmentIds"].split("|") if d.strip().isdigit()}
        ids = [i for i in ids if i in collection.records and collection.records[i]["dept"] in wanted]
    handler.send_json(200, {"total": len(ids), "objectIDs": ids})


def _search(handler, params, collection):
    names = [name for name, _ in params]
    args = dict(params)
    q = args.get("q", "").strip()
    if not q:
        return handler.send_json(200, {"total": 0, "objectIDs": None})
    if names[-1] != "q":
        args = {"q": args["q"]}
    fields = replica_met._search_fields(args)
    ids = [i for i, r in collection.records.items() if replica_met._matches(q, fields(r)) and replica_met._passes(r, args)]
    if not ids:
        return handler.send_json(200, {"total": 0, "objectIDs": None})
    ids.sort()
    handler.send_json(200, {"total": len(ids), "objectIDs": ids})


def _image(handler, path, collection):
    parts = path[len(replica_met.IMAGES):].split("/")
    if len(parts) != 3 or parts[1] not in ("original", "web-large") or not parts[2].endswith((".png", ".jpg")):
        return handler.send_json(404, {"message": "Not Found"})
    stem = parts[2][:-4]
    object_id = stem.split("_")[0]
    record = collection.records.get(int(object_id)) if object_id.isdigit() else None
    if record is None or not record["publicDomain"]:
        return handler.send_json(404, {"message": "Not Found"})
    replica_met.send_picture(handler, stem, parts[1], parts[2][-3:])


class Collection:
    """One synthetic collection at one epoch, in the shape replica_met serves."""

    def __init__(self, size, seed, epoch):
        self.records = {}
        self.listed = []
        self.invalid = set()
        for index in range(size):
            object_id = START + index * STEP
            state = _history(seed, object_id, epoch)
            if state == "removed":
                continue
            self.listed.append(object_id)
            kind = _kind(seed, object_id)
            if kind == "invalid":
                self.invalid.add(object_id)
            elif kind == "served":
                self.records[object_id] = _record(seed, object_id, state)
        for k in range(1, epoch + 1):
            for j in range(max(1, size // 100)):
                object_id = START + size * STEP + (k - 1) * max(1, size // 100) * STEP + j * STEP
                self.listed.append(object_id)
                self.records[object_id] = _record(seed, object_id, ("added", k))
        self.listed.sort()


@functools.lru_cache(maxsize=4)
def _collection(size, seed, epoch):
    return Collection(size, seed, epoch)


def _rng(seed, object_id, salt=0):
    return random.Random(seed * 1_000_003 + object_id * 7919 + salt)


def _kind(seed, object_id):
    roll = _rng(seed, object_id, 1).random()
    if roll < 1 / 40:
        return "invalid"
    if roll < 1 / 40 + 1 / 97:
        return "missing"
    return "served"


def _history(seed, object_id, epoch):
    """What happened to an epoch-0 object by `epoch`: "removed", ("changed", k) for the last change, or None."""
    state = None
    for k in range(1, epoch + 1):
        roll = _rng(seed, object_id, 100 + k).random()
        if roll < 0.01:
            return "removed"
        if roll < 0.06:
            state = ("changed", k)
    return state


def _day(k):
    return EPOCH_DAY + datetime.timedelta(days=10 * k)


def _record(seed, object_id, state):
    r = _rng(seed, object_id)
    subject = r.choice(SUBJECTS)
    title = f"{r.choice(ADJECTIVES).capitalize()} {subject} with {r.choice(MOTIFS)}"
    begin = r.randint(-2000, 2000)
    end = begin + r.randint(0, 80)
    artist = None
    if r.random() < 0.6:
        name = f"{r.choice(FIRST)} {r.choice(LAST)}"
        artist = {"id": 90000 + r.randint(0, 5000), "name": name, "role": "Artist", "nationality": r.choice(CULTURES),
                  "bio": f"{begin}–{end}", "begin": str(begin), "end": str(end), "gender": ""}
    created = datetime.date(2020, 1, 1) + datetime.timedelta(days=r.randint(0, 1800))
    stamp = f"{created.isoformat()}T{r.randint(0, 23):02d}:{r.randint(0, 59):02d}:{r.randint(0, 59):02d}.{r.randint(1, 999)}Z"
    if state is not None:
        what, k = state
        if what == "changed":
            title += f" (revised {k})"
        stamp = f"{_day(k).isoformat()}T12:00:00.5Z"
    public = r.random() < 0.7
    return {
        "id": object_id, "title": title, "objectName": subject.capitalize(), "dept": r.choice(DEPARTMENT_IDS),
        "artist": artist, "culture": r.choice(CULTURES), "period": r.choice(PERIODS),
        "objectDate": f"{begin}–{end}" if end != begin else str(begin), "begin": begin, "end": end,
        "medium": r.choice(MEDIA), "dimensions": f"H. {r.randint(2, 200)} cm",
        "measurements": [["Overall", None, {"Height": float(r.randint(2, 200))}]],
        "tags": sorted(set(r.sample(TAGS, r.randint(0, 3)))) or None, "publicDomain": public,
        "highlight": r.random() < 0.03, "gallery": str(r.randint(100, 999)) if r.random() < 0.2 else "",
        "classification": r.choice(CLASSIFICATIONS), "country": r.choice(COUNTRIES), "metadataDate": stamp,
    }

"""The TheMealDB part of the replica (see replica.py): the real paths, sample data the project wrote, and fault triggers.

Paths, under both /api/json/v1/1/ (the public test key) and /api/json/v2/{any key}/:

    search.php?s=NAME       meals whose name contains NAME (case-insensitive); s= (empty) lists every meal
    search.php?f=L          meals whose name starts with the one letter L
    lookup.php?i=ID         the meal with that id
    random.php              one meal, picked at random
    categories.php          {"categories": [...]} with descriptions
    list.php?c=list | a=list | i=list      category names, areas, ingredients
    filter.php?c=C | a=A | i=I             summaries (idMeal, strMeal, strMealThumb); I may use `_` for spaces

Premium endpoints, only under /api/json/v2/{key}/ (under v1 they answer the 404 page, as unknown endpoints do):

    latest.php              the ten newest meals (highest idMeal first), in full
    randomselection.php     ten different meals picked at random, in full
    filter.php?i=A,B,C      summaries of the meals using every one of the ingredients (comma-separated, `_` for
                            spaces); under v1 a comma list is one name, which no meal has

As the real service does, a search, filter or lookup that matches nothing answers 200 `{"meals":null}`, and bodies
escape `/` as `\\/` and non-ASCII characters as `\\uXXXX`. Query strings are parsed as PHP does (`+` is a space).
Any other key under /api/json/v1/ and any unknown endpoint answer a 404 HTML page.

Images (PNG, generated here, a colour pattern derived from the name), pointed at by the data as absolute URLs on the
replica's own origin (taken from the request's Host header):

    /images/media/meals/SLUG.png             a meal's thumbnail; append /small, /medium, /large or /preview for sizes
    /images/ingredients/NAME.png             an ingredient's picture; NAME-small.png, -medium.png, -large.png
    /images/category/NAME.png                a category's picture

With POST /__settings?size_variants=missing (see replica.py) the size variants answer 404; the originals stay.

Fault triggers, for tests that need a broken answer deterministically: when any query value (after decoding) is

    __html__        200 with an HTML page (Content-Type text/html), as a captive portal or CDN error page sends
    __500__         500 with an HTML error page
    __503__         503 with an HTML page and `Retry-After: 1`, as a service down for maintenance answers
    __text__        200 with a plain-text body that is not JSON
    __truncated__   200 application/json whose body is cut off mid-document

e.g. `search.php?s=__500__`, `random.php?x=__html__`.

The sample data is in data/mealdb/: meals.json (raw meals with the service's quirks: numbered ingredient slots mixing
"", null, " " and padded values, tags with trailing commas, strSource null or "", strMealAlternate in some meals and
strDrinkAlternate in others, \\r\\n in instructions), categories.json, areas.json and ingredients.json.
"""
import json
import os
import random
import re
import struct
import threading
import zlib
from urllib.parse import parse_qs, unquote

DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "mealdb")
API_PATH = re.compile(r"^/api/json/(v1|v2)/([^/]+)/([A-Za-z_]+\.php)$")
MEAL_IMAGE = re.compile(r"^/images/media/meals/([A-Za-z0-9_-]+)\.png(?:/(small|medium|large|preview))?$")
INGREDIENT_IMAGE = re.compile(r"^/images/ingredients/(.+?)(?:-(small|medium|large))?\.png$")
CATEGORY_IMAGE = re.compile(r"^/images/category/([A-Za-z0-9_-]+)\.png$")
IMAGE_SIDES = {None: 160, "preview": 48, "small": 48, "medium": 96, "large": 240}
THUMBNAIL_KEYS = ("strMealThumb", "strCategoryThumb", "strThumb")

FAULT_HTML = """<!DOCTYPE html>
<html><head><title>Just a moment...</title></head>
<body><h1>Checking your browser before accessing the site.</h1><p>This page is not data.</p></body></html>
"""
ERROR_HTML = """<!DOCTYPE html>
<html><head><title>500 Internal Server Error</title></head>
<body><h1>Internal Server Error</h1><p>The server encountered an internal error.</p></body></html>
"""
UNAVAILABLE_HTML = """<!DOCTYPE html>
<html><head><title>503 Service Unavailable</title></head>
<body><h1>Service Unavailable</h1><p>Down for maintenance; back shortly.</p></body></html>
"""
NOT_FOUND_HTML = """<!DOCTYPE html>
<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>
"""


def _load(name):
    with open(os.path.join(DATA_DIR, name), encoding="utf-8") as f:
        return json.load(f)


MEALS = _load("meals.json")["meals"]
CATEGORIES = _load("categories.json")["categories"]
AREAS = _load("areas.json")["meals"]
INGREDIENTS = _load("ingredients.json")["meals"]
INGREDIENT_NAMES = {item["strIngredient"].casefold() for item in INGREDIENTS}
CATEGORY_SLUGS = {os.path.basename(c["strCategoryThumb"])[:-4] for c in CATEGORIES}
MEAL_SLUGS = {os.path.basename(m["strMealThumb"])[:-4] for m in MEALS}

_png_cache = {}
_png_lock = threading.Lock()


IMAGE_PREFIXES = ("/images/media/meals/", "/images/ingredients/", "/images/category/")


def handles(path):
    return path.startswith("/api/json/") or path.startswith(IMAGE_PREFIXES)


def handle(handler, path, query):
    params = parse_qs(query, keep_blank_values=True, errors="replace")
    fault = _fault(params)
    if fault:
        return handler.send_body(*fault)
    if path.startswith("/images/"):
        return _image(handler, unquote(path))
    match = API_PATH.match(path)
    if not match or (match.group(1) == "v1" and match.group(2) != "1"):
        return handler.send_body(404, NOT_FOUND_HTML, "text/html; charset=UTF-8")
    premium = match.group(1) == "v2"
    endpoint = (premium and PREMIUM_ENDPOINTS.get(match.group(3))) or ENDPOINTS.get(match.group(3))
    if endpoint is None:
        return handler.send_body(404, NOT_FOUND_HTML, "text/html; charset=UTF-8")
    origin = "http://" + handler.headers.get("Host", "%s:%d" % handler.server.server_address[:2])
    body = endpoint({name: values[0] for name, values in params.items()})
    handler.send_body(200, _encode(_absolute(body, origin)), "application/json")


# Faults

def _fault(params):
    """The canned answer a trigger value in the query asks for, if any."""
    for values in params.values():
        for value in values:
            if value in FAULTS:
                return FAULTS[value]
    return None


# Endpoints: each takes the query (first value per name) and returns the JSON body.

def _meals(found):
    return {"meals": found or None}


def _search(q):
    if "s" in q:
        term = q["s"].strip().casefold()
        return _meals([m for m in MEALS if term in m["strMeal"].casefold()])
    if "f" in q:
        letter = q["f"].strip().casefold()
        if len(letter) != 1:
            return _meals([])
        return _meals([m for m in MEALS if m["strMeal"].casefold().startswith(letter)])
    return _meals([])


def _lookup(q):
    wanted = q.get("i", "").strip()
    return _meals([m for m in MEALS if m["idMeal"] == wanted])


def _random(q):
    return _meals([random.choice(MEALS)])


def _categories(q):
    return {"categories": CATEGORIES}


def _list(q):
    if q.get("c") == "list":
        return _meals([{"strCategory": c["strCategory"]} for c in CATEGORIES])
    if q.get("a") == "list":
        return _meals(AREAS)
    if q.get("i") == "list":
        return _meals(INGREDIENTS)
    return _meals([])


def _ingredient_names(meal):
    for slot in range(1, 21):
        name = (meal.get("strIngredient%d" % slot) or "").strip()
        if name:
            yield name.casefold()


def _filter(q):
    if "c" in q:
        wanted = q["c"].strip().casefold()
        found = [m for m in MEALS if (m["strCategory"] or "").casefold() == wanted]
    elif "a" in q:
        wanted = q["a"].strip().casefold()
        found = [m for m in MEALS if (m["strArea"] or "").casefold() == wanted]
    elif "i" in q:
        wanted = q["i"].replace("_", " ").strip().casefold()
        found = [m for m in MEALS if wanted in set(_ingredient_names(m))]
    else:
        found = []
    return _meals([{"strMeal": m["strMeal"], "strMealThumb": m["strMealThumb"], "idMeal": m["idMeal"]} for m in found])


def _latest(q):
    newest = sorted(MEALS, key=lambda m: int(m["idMeal"]), reverse=True)
    return _meals(newest[:10])


def _random_selection(q):
    return _meals(random.sample(MEALS, min(10, len(MEALS))))


def _filter_premium(q):
    """filter.php under v2: a comma-separated `i` asks for meals with every one of the ingredients."""
    if "i" not in q or "," not in q["i"]:
        return _filter(q)
    wanted = [name.replace("_", " ").strip().casefold() for name in q["i"].split(",")]
    found = [m for m in MEALS if all(name in set(_ingredient_names(m)) for name in wanted)]
    return _meals([{"strMeal": m["strMeal"], "strMealThumb": m["strMealThumb"], "idMeal": m["idMeal"]} for m in found])


PREMIUM_ENDPOINTS = {
    "latest.php": _latest,
    "randomselection.php": _random_selection,
    "filter.php": _filter_premium,
}


ENDPOINTS = {
    "search.php": _search,
    "lookup.php": _lookup,
    "random.php": _random,
    "categories.php": _categories,
    "list.php": _list,
    "filter.php": _filter,
}


def _absolute(value, origin):
    """Points the data's image paths at this replica."""
    if isinstance(value, list):
        return [_absolute(item, origin) for item in value]
    if isinstance(value, dict):
        return {key: (origin + item if key in THUMBNAIL_KEYS and isinstance(item, str) and item.startswith("/")
                      else _absolute(item, origin))
                for key, item in value.items()}
    return value


def _encode(value):
    """JSON as PHP's json_encode writes it: non-ASCII as \\uXXXX, `/` as `\\/`."""
    return json.dumps(value, ensure_ascii=True, separators=(",", ":")).replace("/", "\\/")


FAULTS = {
    "__html__": (200, FAULT_HTML, "text/html; charset=UTF-8"),
    "__500__": (500, ERROR_HTML, "text/html; charset=UTF-8"),
    "__503__": (503, UNAVAILABLE_HTML, "text/html; charset=UTF-8", {"Retry-After": "1"}),
    "__text__": (200, "Service temporarily unavailable, try again later.\n", "text/plain"),
    "__truncated__": (200, _encode({"meals": MEALS[:2]})[:300], "application/json"),
}


# Images

def _image(handler, path):
    meal = MEAL_IMAGE.match(path)
    category = CATEGORY_IMAGE.match(path)
    ingredient = INGREDIENT_IMAGE.match(path)
    variant = (meal and meal.group(2)) or (ingredient and ingredient.group(2))
    if variant and not handler.server.size_variants_served:
        return handler.send_body(404, NOT_FOUND_HTML, "text/html; charset=UTF-8")
    if meal and meal.group(1) in MEAL_SLUGS:
        png = _png(meal.group(1), IMAGE_SIDES[meal.group(2)])
    elif category and category.group(1) in CATEGORY_SLUGS:
        png = _png(category.group(1), IMAGE_SIDES[None])
    elif ingredient and ingredient.group(1).casefold() in INGREDIENT_NAMES:
        png = _png(ingredient.group(1).casefold(), IMAGE_SIDES[ingredient.group(2)])
    else:
        return handler.send_body(404, NOT_FOUND_HTML, "text/html; charset=UTF-8")
    handler.send_body(200, png, "image/png", {"Cache-Control": "max-age=86400"})


def _png(name, side):
    """A real PNG (8-bit RGB): two diagonal colour bands chosen from the name, so every picture differs."""
    key = (name, side)
    with _png_lock:
        if key in _png_cache:
            return _png_cache[key]
    seed = zlib.crc32(name.encode("utf-8"))
    first = (seed & 0xFF, (seed >> 8) & 0xFF, (seed >> 16) & 0xFF)
    second = tuple(255 - c for c in first)
    rows = bytearray()
    for y in range(side):
        rows.append(0)  # filter type: none
        for x in range(side):
            rows.extend(first if (x + y) % (side // 4 or 1) < side // 8 else second)

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))
    with _png_lock:
        _png_cache[key] = png
    return png

"""Writes the static files nginx serves in the tests and benchmarks into the folder given as the only argument.

small.json is about 2 KB and big.json about 200 KB of meal-like JSON; the same files are copied under each
/cache/<policy>/ route. large.bin is a sparse 256 MiB file, for streaming with bounded memory.
"""
import json
import os
import sys


def meal(i):
    return {
        "idMeal": str(50000 + i),
        "strMeal": f"Test meal number {i} with a fairly long name",
        "strCategory": ["Beef", "Chicken", "Dessert", "Pasta", "Seafood"][i % 5],
        "strArea": ["Italian", "French", "Mexican", "Japanese"][i % 4],
        "strInstructions": "Mix, heat and serve. " * 3,
        "strMealThumb": f"https://example.invalid/images/media/meals/{i}.jpg",
        "strTags": "Tag,Other,",
    }


def document(target_bytes):
    meals = []
    while len(json.dumps({"meals": meals})) < target_bytes:
        meals.append(meal(len(meals)))
    return json.dumps({"meals": meals})


def main():
    root = sys.argv[1]
    os.makedirs(root, exist_ok=True)
    files = {"small.json": document(2048), "big.json": document(200 * 1024)}
    folders = [root] + [os.path.join(root, "cache", p) for p in (
        "max-age-60", "max-age-0", "no-cache", "no-store", "must-revalidate", "private", "vary", "vary-star", "none")]
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
        for name, body in files.items():
            with open(os.path.join(folder, name), "w") as f:
                f.write(body)
    # Files for the download tests and the benchmark are written here at run time.
    os.makedirs(os.path.join(root, "downloads"), exist_ok=True)
    with open(os.path.join(root, "large.bin"), "wb") as f:
        f.truncate(256 * 1024 * 1024)


if __name__ == "__main__":
    main()

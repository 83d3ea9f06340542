#!/usr/bin/env python3
"""Write a synthetic iTunes "Top Songs" Atom feed of any size, streamed.

    scripts/generate_topsongs.py --entries 200000 --out bench/work/topsongs-200k.xml [--categories 300] [--seed 1]

Each <entry> has the shape of the real feed (im:name, im:artist, im:price, im:image,
im:collection, a category with im:id/term/scheme/label, ...). Names carry XML escapes
(&amp; &lt; &quot;) and non-ASCII characters. Memory is constant (entries are written in
batches); the output is byte-identical for a given seed and size.
"""

import argparse
import random

WORDS = ["Love", "Night", "Heart", "Fire", "Dream", "Summer", "Rain", "Light", "Gold", "Wild",
         "Blue", "Dance", "Home", "Ocean", "Star", "City", "Ghost", "River", "Shadow", "Thunder",
         "Young", "Forever", "Paradise", "Radio", "Diamond", "Sugar", "Midnight", "Echo",
         "Corazón", "Été", "Fräulein", "Mañana", "Niño", "Sørensen", "Café", "Naïve", "Zürich",
         "東京", "Ελπίδα", "Мечта"]
JOINERS = ["of", "in", "&", "and", "on", "with", "<3", "for", "'n'", "vs."]
FIRST_NAMES = ["Taylor", "Bruno", "Adele", "Rihanna", "Beyoncé", "Justin", "Ed", "Katy", "Zoë",
               "Björk", "Sinéad", "José", "Ana", "Mika", "Lorde", "Calvin", "Ellie", "Frank"]
LAST_NAMES = ["Swift", "Mars", "Harris", "Sheeran", "Perry", "Goulding", "Ocean", "González",
              "Müller", "O'Connor", "Nørgaard", "Dupré", "Smith", "Jones", "Lee", "Kim"]
BAND_WORDS = ["The Lumineers", "Imagine Dragons", "Of Monsters & Men", "Mumford & Sons",
              "Fun.", "Macklemore & Ryan Lewis", "Florence + The Machine", "Sigur Rós",
              "Mötley Crüe", "Daft Punk", "The xx", "Bon Iver", "Alt-J (∆)", "Little Mix"]
LABELS = ["Big Machine Records, LLC", "Atlantic Recording Corporation", "Columbia Records",
          "Universal Republic Records", "Interscope Records", "XL Recordings Ltd", "Sony Music",
          "Warner Bros. Records Inc.", "Island Def Jam", "Dualtone Records", "Indie & Co."]
BASE_GENRES = ["Pop", "Rock", "Alternative", "Country", "Hip-Hop/Rap", "R&B/Soul", "Dance",
               "Electronic", "Singer/Songwriter", "Soundtrack", "Latino", "Jazz", "Blues",
               "Classical", "Reggae", "World", "Folk", "Metal", "Punk", "Gospel", "K-Pop",
               "J-Pop", "Children's Music", "Christian & Gospel", "Easy Listening", "Opera"]
GENRE_QUALIFIERS = ["Indie", "Latin", "Modern", "Classic", "Nordic", "Brazilian", "French",
                    "German", "Acoustic", "Deep", "Progressive", "Underground", "Tropical",
                    "Urban", "Vocal", "Instrumental", "Experimental", "Traditional"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
PRICES = [("0.69000", "$0.69"), ("0.99000", "$0.99"), ("1.29000", "$1.29")]


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def escape_attr(text):
    return escape(text).replace('"', "&quot;")


def slug(text):
    out = "".join(c.lower() if c.isascii() and c.isalnum() else "-" for c in text)
    return "-".join(part for part in out.split("-") if part) or "x"


def make_categories(rng, count):
    """Distinct genres: the base genres first, then qualified ones ("Indie Rock")."""
    names = list(BASE_GENRES)
    combos = [f"{q} {g}" for q in GENRE_QUALIFIERS for g in BASE_GENRES]
    rng.shuffle(combos)
    names += combos
    while len(names) < count:
        names.append(f"Genre {len(names) + 1}")
    names = names[:count]
    ids = rng.sample(range(2, 100_000), count)
    return [(ids[i], name) for i, name in enumerate(names)]


def title(rng, words):
    n = rng.choice((1, 1, 2, 2, 3))
    parts = [rng.choice(words) for _ in range(n)]
    if n >= 2 and rng.random() < 0.4:
        parts.insert(1, rng.choice(JOINERS))
    text = " ".join(parts)
    roll = rng.random()
    if roll < 0.1:
        text += f" (feat. {rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)})"
    elif roll < 0.15:
        text += " [Remix]"
    elif roll < 0.18:
        text += ' ("Live")'
    return text


def artist(rng):
    return rng.choice(BAND_WORDS) if rng.random() < 0.3 \
        else f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}"


def entry(rng, categories, track_id):
    """Returns (category id, the entry's XML text)."""
    song = title(rng, WORDS)
    who = artist(rng)
    album = title(rng, WORDS) if rng.random() < 0.7 else song + " - Single"
    cat_id, cat = categories[min(int(rng.paretovariate(1.2)) - 1, len(categories) - 1)] \
        if rng.random() < 0.5 else rng.choice(categories)
    album_id = track_id - rng.randint(1, 30)
    artist_id = rng.randint(10_000_000, 600_000_000)
    year = rng.randint(1965, 2013)
    month = rng.randint(1, 12)
    day = rng.randint(1, 28)
    amount, price = rng.choice(PRICES)
    song_slug, who_slug, album_slug = slug(song), slug(who), slug(album)
    album_url = f"https://itunes.apple.com/us/album/{album_slug}/id{album_id}"
    art = f"http://a{rng.randint(1, 5)}.mzstatic.com/us/r1000/{rng.randint(0, 120):03d}/Music/{rng.randrange(16**8):08x}/mzi.{rng.randrange(26**8):x}"
    preview = f"http://a{rng.randint(1, 1800)}.phobos.apple.com/us/r1000/{rng.randint(0, 120):03d}/Music/{rng.randrange(16**8):08x}/mzm.{rng.randrange(26**8):x}.aac.p.m4a"
    e_song, e_who, e_album, e_cat = escape(song), escape(who), escape(album), escape_attr(cat)
    return cat_id, f"""  <entry>
    <updated>2013-02-18T12:00:00-07:00</updated>
    <id im:id="{track_id}">{album_url}?i={track_id}&amp;uo=2</id>
    <title>{e_song} - {e_who}</title>
    <im:name>{e_song}</im:name>
    <link rel="alternate" type="text/html" href="{album_url}?i={track_id}&amp;uo=2"/>
    <im:contentType term="Music" label="Music"><im:contentType term="Track" label="Track"/></im:contentType>
    <category im:id="{cat_id}" term="{e_cat}" scheme="https://itunes.apple.com/us/genre/music-{slug(cat)}/id{cat_id}?uo=2" label="{e_cat}"/>
    <link title="Preview" rel="enclosure" type="audio/x-m4a" href="{preview}" im:assetType="preview"><im:duration>30000</im:duration></link>
    <im:artist href="https://itunes.apple.com/us/artist/{who_slug}/id{artist_id}?uo=2">{e_who}</im:artist>
    <im:price amount="{amount}" currency="USD">{price}</im:price>
    <im:image height="55">{art}.55x55-70.jpg</im:image>
    <im:image height="60">{art}.60x60-50.jpg</im:image>
    <im:image height="170">{art}.170x170-75.jpg</im:image>
    <im:collection><im:name>{e_album}</im:name><link rel="alternate" type="text/html" href="{album_url}?uo=2"/><im:contentType term="Music" label="Music"><im:contentType term="Album" label="Album"/></im:contentType></im:collection>
    <im:releaseDate label="{MONTHS[month - 1]} {day}, {year}">{year}-{month:02d}-{day:02d}T00:00:00-07:00</im:releaseDate>
    <rights>℗ {year} {escape(rng.choice(LABELS))}</rights>
  </entry>
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, required=True, help="number of <entry> elements")
    parser.add_argument("--out", required=True, help="output .xml file")
    parser.add_argument("--categories", type=int, default=300, help="distinct categories (default 300)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.categories < 1:
        parser.error("--categories must be at least 1")

    rng = random.Random(args.seed)
    categories = make_categories(rng, args.categories)
    used = set()
    track_id = 500_000_000
    with open(args.out, "w", encoding="utf-8", newline="\n", buffering=1 << 20) as f:
        f.write('<?xml version="1.0" encoding="utf-8"?>\n'
                '<feed xmlns:im="http://itunes.apple.com/rss" xmlns="http://www.w3.org/2005/Atom" xml:lang="en">\n'
                f'  <id>https://itunes.apple.com/us/rss/topsongs/limit={args.entries}/xml</id>'
                '<title>iTunes Store: Top Songs</title><updated>2013-02-18T12:00:00-07:00</updated>\n'
                '  <link rel="alternate" type="text/html" href="https://itunes.apple.com/WebObjects/MZStore.woa/wa/viewTop?cc=us&amp;id=1&amp;popId=1"/>\n'
                '  <icon>http://itunes.apple.com/favicon.ico</icon>\n'
                '  <author><name>iTunes Store</name><uri>http://www.apple.com/itunes/</uri></author>\n'
                '  <rights>Copyright 2008 Apple Inc.</rights>\n')
        done = 0
        while done < args.entries:
            batch = min(2000, args.entries - done)
            parts = []
            for _ in range(batch):
                track_id += rng.randint(1, 50)
                cat_id, text = entry(rng, categories, track_id)
                used.add(cat_id)
                parts.append(text)
            f.write("".join(parts))
            done += batch
        f.write("</feed>\n")
    print(f"{args.out}: {args.entries} entries, {len(used)} distinct categories")


if __name__ == "__main__":
    main()

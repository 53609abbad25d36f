#!/usr/bin/env python3
"""//! derive.py — the 熟語麻雀 word list from NAIST Japanese Dictionary (naist-jdic).

Reads the ChaSen-format dictionary source `naist-jdic.dic` (EUC-JP text, one
entry a line, each with a part of speech, a surface form and a cost) from the
Debian package naist-jdic 1:0.4.3-21 (BSD-3-Clause, Nara Institute of Science
and Technology), and writes every 2- and 3-character word made only of the
deck's kanji, plus the 2-character words X々 whose X is in the deck.

Fetch the source (once, anywhere; it is not part of the repository):

    apt-get download naist-jdic=1:0.4.3-21      # naist-jdic_1%3a0.4.3-21_all.deb

Regenerate the word list (Python 3.11, standard library only, no network):

    python3 stdlib/jukugo/derive.py naist-jdic_1%3a0.4.3-21_all.deb \\
        stdlib/jukugo/kanji.tsv > stdlib/jukugo/words.txt

The first argument is the .deb itself or the extracted
usr/share/chasen/dic/naist-jdic/naist-jdic.dic.  The second is kanji.tsv
(column 2) or any text file: every kanji in it other than 々 is taken.

Which entries count (the "common" rule):
  * proper nouns (品詞 containing 固有名詞) are dropped;
  * the surface must be 2 or 3 CJK ideographs with no kanji twice, or X々;
  * the entry's cost must be at most (the modal cost of its part of speech
    minus MARGIN, default 400).  naist-jdic inherits IPAdic's costs, which
    were estimated from corpus frequency: the modal cost of a part of speech
    is the default given to entries never seen in the corpus, and lower is
    more frequent.  A surface is kept if any of its entries passes.
"""
import argparse
import collections
import io
import lzma
import re
import sys
import tarfile

SOURCE = "naist-jdic 1:0.4.3-21 (Debian package naist-jdic, file usr/share/chasen/dic/naist-jdic/naist-jdic.dic)"
LICENCE = "BSD-3-Clause; Copyright (c) 2008, Nara Institute of Science and Technology (see LICENSE-naist-jdic.txt)"
DIC_MEMBER = "usr/share/chasen/dic/naist-jdic/naist-jdic.dic"
MARGIN = 400
ENTRY = re.compile(r"^\(品詞 \(([^)]*)\)\) \(\(見出し語 \((\S+) (\d+)\)\)")


def is_kanji(ch):
    return "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf"


def read_dic_bytes(path):
    """The naist-jdic.dic bytes, from the .deb (an ar archive) or the file itself."""
    data = open(path, "rb").read()
    if not data.startswith(b"!<arch>\n"):
        return data
    pos = 8
    while pos < len(data):
        name = data[pos:pos + 16].decode().strip().rstrip("/")
        size = int(data[pos + 48:pos + 58].decode().strip())
        body = data[pos + 60:pos + 60 + size]
        if name.startswith("data.tar"):
            if name.endswith(".xz"):
                body = lzma.decompress(body)
            with tarfile.open(fileobj=io.BytesIO(body)) as tar:
                for m in tar.getmembers():
                    if m.name.lstrip("./") == DIC_MEMBER:
                        return tar.extractfile(m).read()
            break
        pos += 60 + size + (size & 1)
    sys.exit(f"derive.py: {DIC_MEMBER} not found in {path}")


def entries(path):
    """(part of speech, surface, cost) for every entry of the dictionary."""
    for line in read_dic_bytes(path).decode("euc_jp", errors="replace").splitlines():
        m = ENTRY.match(line)
        if m:
            yield m.group(1), m.group(2), int(m.group(3))


def shape_ok(w):
    if len(w) == 2 and is_kanji(w[0]) and w[1] == "々":
        return True
    return len(w) in (2, 3) and all(is_kanji(c) for c in w) and len(set(w)) == len(w)


def common_words(path, margin=MARGIN):
    """Every common 2-/3-character kanji word of the dictionary (a sorted list)."""
    rows = [(pos, w, cost) for pos, w, cost in entries(path)
            if "固有名詞" not in pos and shape_ok(w)]
    costs = collections.defaultdict(collections.Counter)
    for pos, _, cost in rows:
        costs[pos][cost] += 1
    # the modal cost: most frequent, the higher cost on a tie
    mode = {pos: max(c.items(), key=lambda kv: (kv[1], kv[0]))[0] for pos, c in costs.items()}
    return sorted({w for pos, w, cost in rows if cost <= mode[pos] - margin})


def read_kanji(path):
    text = open(path, encoding="utf-8").read()
    if path.endswith(".tsv"):
        text = "".join(line.split("\t")[1] for line in text.splitlines()
                       if line.strip() and not line.startswith("#"))
    return {c for c in text if is_kanji(c)}


def deck_words(words, kanji):
    return [w for w in words if all(c in kanji or (i == 1 and c == "々") for i, c in enumerate(w))]


def main():
    ap = argparse.ArgumentParser(description="Derive the 熟語麻雀 word list from naist-jdic.")
    ap.add_argument("source", help="naist-jdic_1%%3a0.4.3-21_all.deb or naist-jdic.dic")
    ap.add_argument("kanji", help="kanji.tsv (column 2) or a text file of kanji")
    ap.add_argument("--margin", type=int, default=MARGIN,
                    help="keep entries whose cost <= modal cost of their part of speech - MARGIN (default %(default)s)")
    ap.add_argument("--name", default="words.txt",
                    help="the file's name under stdlib/jukugo/, for its regenerate line (default %(default)s)")
    a = ap.parse_args()
    words = deck_words(common_words(a.source, a.margin), read_kanji(a.kanji))
    n2 = sum(1 for w in words if len(w) == 2 and w[1] != "々")
    n3 = sum(1 for w in words if len(w) == 3)
    nd = sum(1 for w in words if w.endswith("々"))
    margin = "" if a.margin == MARGIN else f" --margin {a.margin}"
    name = "" if a.name == "words.txt" else f" --name {a.name}"
    out = sys.stdout
    out.write("# 熟語麻雀 word list: 2- and 3-kanji words of the deck's kanji, and X々 words for the joker.\n")
    out.write(f"# Source: {SOURCE}\n")
    out.write(f"# Licence: {LICENCE}\n")
    out.write("# This list is derived from the NAIST Japanese Dictionary, developed by\n")
    out.write("# Nara Institute of Science and Technology; the name of NAIST does not endorse it.\n")
    out.write(f"# Rule: no proper nouns; entry cost <= modal cost of its part of speech - {a.margin}.\n")
    out.write(f"# Words: {n2} of 2 kanji, {n3} of 3 kanji, {nd} of X々 ({len(words)} in all).\n")
    out.write("# Regenerate: python3 stdlib/jukugo/derive.py naist-jdic_1%3a0.4.3-21_all.deb"
              f" stdlib/jukugo/kanji.tsv{margin}{name} > stdlib/jukugo/{a.name}\n")
    for w in words:
        out.write(w + "\n")


if __name__ == "__main__":
    main()

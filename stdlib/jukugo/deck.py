"""Writes std/jukugo, the 熟語麻雀 deck, from kanji.tsv.

    python3 stdlib/jukugo/deck.py stdlib/jukugo/kanji.tsv > stdlib/jukugo.fuda

Each line of kanji.tsv is `id<TAB>kanji<TAB>colour<TAB>points`; the id's rank (A 2 … 10 J Q
K) and suit letter (S H D C) give the card's playing-card identity. Standard library only,
deterministic.
"""

import sys

RANKS = {"A": 14, "J": 11, "Q": 12, "K": 13}
SUITS = {"S": "スペード", "H": "ハート", "D": "ダイヤ", "C": "クラブ"}
COLOURS = ["青", "桃", "黄", "緑", "茶"]


def cards(path):
    """The deck's lines, as (id, kanji, colour, points)."""
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("#"):
                cid, kanji, colour, points = line.split("\t")
                out.append((cid, kanji, colour, int(points)))
    return out


def main():
    deck = cards(sys.argv[1])
    kanji = []
    for _, k, _, _ in deck:
        if k not in kanji:
            kanji.append(k)
    w = sys.stdout.write
    w("# std/jukugo — 熟語麻雀's 54 kanji playing cards: 52 with a playing-card identity\n")
    w("# (AS … KC), one kanji each and a colour worth 1–5 points, and two jokers JK1 JK2.\n")
    w("#\n")
    w("# Written by stdlib/jukugo/deck.py from stdlib/jukugo/kanji.tsv; how the 52 kanji were\n")
    w("# chosen, and the word list `std/jukugo/words.txt` beside it, are in\n")
    w("# stdlib/jukugo/SOURCE.md. A product with other kanji replaces both files.\n")
    w("#\n")
    w("#   rank    2..14: 2–10, J 11, Q 12, K 13, A 14 (the order the first dealer is drawn\n")
    w("#           by); the jokers 0.\n")
    w("#   suit    なし | クラブ | ダイヤ | ハート | スペード, lowest first (♣ < ♦ < ♥ < ♠, the\n")
    w("#           tie-break of the draw for dealer); the jokers なし.\n")
    w("#   kanji   the card's kanji; the jokers 々.\n")
    w("#   colour  青 | 桃 | 黄 | 緑 | 茶 (1 to 5 points); the jokers なし.\n")
    w("#   points  0..5.\n")
    w("#   ジョーカー  the tag of JK1 and JK2.\n")
    w("#\n")
    w("# Display names are the kanji and the colour, `年[青]`, so that a hand shows what each\n")
    w("# card is worth; the jokers are `々(1)` and `々(2)`.\n")
    w("\n")
    w('deck jukugo "熟語麻雀 kanji playing cards, 54" {\n')
    w("  attribute rank:   0..14\n")
    w("  attribute suit:   なし | クラブ | ダイヤ | ハート | スペード\n")
    w("  attribute kanji:  " + " | ".join(kanji) + "\n")
    w("  attribute colour: なし | " + " | ".join(COLOURS) + "\n")
    w("  attribute points: 0..5\n")
    w("  tags ジョーカー\n")
    w("\n")
    for cid, k, colour, points in deck:
        if cid.startswith("JK"):
            w(f'  card {cid} "々({cid[2:]})" rank=0 suit=なし kanji={k} colour=なし points=0 +ジョーカー\n')
            continue
        rank = RANKS.get(cid[:-1]) or int(cid[:-1])
        suit = SUITS[cid[-1]]
        w(f'  card {cid:<3} "{k}[{colour}]" rank={rank} suit={suit} kanji={k} colour={colour} points={points}\n')
    w("}\n")


if __name__ == "__main__":
    main()

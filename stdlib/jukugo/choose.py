#!/usr/bin/env python3
"""//! choose.py — compare candidate 52-kanji sets for 熟語麻雀 and write the deck.

For each candidate set it takes the words derive.py would keep (same source,
same rule) and measures the word graph the set induces and, by Monte Carlo
with a fixed seed over the 54-card deck (52 kanji cards and two jokers),
how the game plays:

  * 天和: a random 6-card hand already has a winning form;
  * 5-card tenpai: a random 5-card hand is won by some one of the 49 other cards;
  * 6-card one away: a random 6-card hand that is not won becomes won by
    discarding one card and drawing some one of the 48 others.

Winning forms (checked exactly): three 2-kanji words; or two 3-card groups,
each a スリーカード (three of a rank, a joker standing for any rank), a
3-kanji word, or three kanji of which at least two of the three pairs are
2-kanji words.  A joker stands as 々: the pair (X, joker) is a word when X々
is.  Words match with the kanji in any order.

Compare the candidates (Python 3.11, standard library only, no network):

    python3 stdlib/jukugo/choose.py naist-jdic_1%3a0.4.3-21_all.deb

Write the chosen deck (then run derive.py for words.txt):

    python3 stdlib/jukugo/choose.py naist-jdic_1%3a0.4.3-21_all.deb \\
        --write stdlib/jukugo/kanji.tsv

Deck rule: the chosen kanji are ordered by how many words of the list each
takes part in (most first, ties by code point).  Colours by that order:
the 11 most-used 青 (1 point), next 11 桃 (2), next 10 黄 (3), next 10 緑 (4),
the 10 least-used 茶 (5).  Card ids: the i-th kanji (from 0) of that order
gets rank A 2 … 10 J Q K number i mod 13 and suit ♠ ♥ ♦ ♣ number i div 13, so
each rank holds one kanji from each quarter of the order.  JK1, JK2 are 々.
"""
import argparse
import collections
import itertools
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import derive  # noqa: E402

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "D", "C"]
COLOURS = [("青", 1, 11), ("桃", 2, 11), ("黄", 3, 10), ("緑", 4, 10), ("茶", 5, 10)]
SEED = 20261207
N_TENHO, N_TENPAI5, N_AWAY6 = 20000, 4000, 1500

# Everyday kanji picked by hand: nature, the body, people, time, place, size.
HAND = ("日月火水木金土山川海空雨雪風花草石田天気人子女男手足目口心"
        "大小上下中外前後左右本学生先年時春夏秋冬光色音")


class Game:
    def __init__(self, kanji, words):
        self.words = derive.deck_words(words, set(kanji))
        use = collections.Counter()
        for w in self.words:
            use.update(c for c in w if c != "々")
        # the deck order: most-used first; the i-th kanji has rank i % 13
        self.kanji = sorted(kanji, key=lambda k: (-use[k], k))
        self.w2 = {frozenset(w) for w in self.words if len(w) == 2 and w[1] != "々"}
        self.w3 = {frozenset(w) for w in self.words if len(w) == 3}
        self.dou = {w[0] for w in self.words if w.endswith("々")}
        # cards 0..51 kanji (rank i % 13), 52 and 53 jokers
        self.cards = [(i % 13, k) for i, k in enumerate(self.kanji)] + [(None, None)] * 2
        n = len(self.cards)
        self.pw = [[self._pair(a, b) for b in range(n)] for a in range(n)]

    def _pair(self, a, b):
        ka, kb = self.cards[a][1], self.cards[b][1]
        if a == b or (ka is None and kb is None):
            return False
        if ka is None or kb is None:
            return (ka or kb) in self.dou
        return frozenset((ka, kb)) in self.w2

    def group(self, a, b, c):
        ranks = {self.cards[x][0] for x in (a, b, c)} - {None}
        if len(ranks) <= 1:
            return True
        pw = self.pw
        if pw[a][b] + pw[a][c] + pw[b][c] >= 2:
            return True
        ks = [self.cards[x][1] for x in (a, b, c)]
        return None not in ks and frozenset(ks) in self.w3

    def wins(self, h):
        a, b, c, d, e, f = h
        pw = self.pw
        rest = [b, c, d, e, f]
        for i in range(5):  # a paired with rest[i], then 3 pairings of the other four
            if not pw[a][rest[i]]:
                continue
            p, q, r, s = rest[:i] + rest[i + 1:]
            if (pw[p][q] and pw[r][s]) or (pw[p][r] and pw[q][s]) or (pw[p][s] and pw[q][r]):
                return True
        for x, y in itertools.combinations(rest, 2):
            o = [t for t in rest if t != x and t != y]
            if self.group(a, x, y) and self.group(*o):
                return True
        return False

    def stats(self):
        deg = collections.Counter()
        for w in self.w2:
            deg.update(w)
        few = sum(1 for k in self.kanji if deg[k] <= 2)
        none = sum(1 for k in self.kanji if deg[k] == 0)
        rng = random.Random(SEED)
        deck = list(range(54))
        tenho = sum(self.wins(rng.sample(deck, 6)) for _ in range(N_TENHO))
        tenpai = 0
        for _ in range(N_TENPAI5):
            h = rng.sample(deck, 5)
            tenpai += any(self.wins(h + [c]) for c in deck if c not in h)
        away = tried = 0
        while tried < N_AWAY6:
            h = rng.sample(deck, 6)
            if self.wins(h):
                continue
            tried += 1
            away += any(self.wins(h[:i] + h[i + 1:] + [c])
                        for i in range(6) for c in deck if c not in h)
        return dict(words=len(self.words), n2=len(self.w2), n3=len(self.w3), dou=len(self.dou),
                    few=few, none=none, maxdeg=max(deg[k] for k in self.kanji),
                    tenho=tenho / N_TENHO, tenpai5=tenpai / N_TENPAI5, away6=away / N_AWAY6)


def greedy(words, pool_size):
    """52 kanji built greedily: start at the kanji in most 2-kanji words, then
    add each time the kanji of the pool (the pool_size kanji in most 2-kanji
    words) that forms most 2-kanji words with those chosen."""
    deg = collections.Counter()
    two = [w for w in words if len(w) == 2 and w[1] != "々"]
    for w in two:
        deg.update(w)
    pool = sorted(deg, key=lambda k: (-deg[k], k))[:pool_size]
    link = collections.defaultdict(collections.Counter)
    for w in two:
        a, b = w
        link[a][b] += 1
        link[b][a] += 1
    chosen = [pool[0]]
    while len(chosen) < 52:
        cs = set(chosen)
        best = max((k for k in pool if k not in cs),
                   key=lambda k: (sum(link[k][c] for c in cs), deg[k], -ord(k)))
        chosen.append(best)
    return "".join(chosen)


def balanced(words, pool_size, start, target, iters=20000):
    """52 kanji by local search from start: swap a chosen kanji for one of the
    pool (the pool_size kanji in most 2-kanji words) while the score rises.
    Score: each kanji earns min(links, target) and loses half a point for each
    link past target + 1, so every kanji has a few partners and none many,
    which keeps hands that are already won rare."""
    two = [w for w in words if len(w) == 2 and w[1] != "々"]
    deg = collections.Counter()
    adj = collections.defaultdict(set)
    for a, b in two:
        deg[a] += 1
        deg[b] += 1
        adj[a].add(b)
        adj[b].add(a)
    pool = sorted(deg, key=lambda k: (-deg[k], k))[:pool_size]
    pool = sorted(set(pool) | set(start))
    def score(cs):
        total = 0.0
        for k in cs:
            d = len(adj[k] & cs)
            total += min(d, target) - 0.5 * max(0, d - target - 1)
        return total
    cs = set(start)
    best = score(cs)
    rng = random.Random(SEED)
    for _ in range(iters):
        out = rng.choice(sorted(cs))
        inn = rng.choice(pool)
        if inn in cs:
            continue
        trial = (cs - {out}) | {inn}
        s = score(trial)
        if s > best:
            cs, best = trial, s
    return "".join(sorted(cs))


def most_words(words, pool_size, start, cap, iters=30000):
    """52 kanji by local search from start, for the longest word list that keeps
    dealt wins rare: maximise the lines of the list (2-kanji words in either
    order, 3-kanji and X々 words) less 3 for each kanji pair forming a word past
    cap (the pair count drives 天和) and 2 for each missing partner of a kanji
    with fewer than 3, so that every card still plays."""
    two = [w for w in words if len(w) == 2 and w[1] != "々"]
    three = [w for w in words if len(w) == 3]
    dou = {w[0] for w in words if w.endswith("々")}
    use = collections.Counter(c for w in words for c in w if c != "々")
    pool = sorted(set(k for k, _ in use.most_common(pool_size)) | set(start))
    adj = collections.defaultdict(set)
    for a, b in two:
        adj[a].add(b)
        adj[b].add(a)

    def score(cs):
        lines = sum(1 for a, b in two if a in cs and b in cs)
        pairs = len({frozenset(w) for w in two if w[0] in cs and w[1] in cs})
        lines += sum(1 for w in three if all(c in cs for c in w))
        lines += sum(1 for k in cs if k in dou)
        weak = sum(max(0, 3 - len(adj[k] & cs)) for k in cs)
        return lines - 3 * max(0, pairs - cap) - 2 * weak

    cs = set(start)
    best = score(cs)
    rng = random.Random(SEED)
    for _ in range(iters):
        out = rng.choice(sorted(cs))
        inn = rng.choice(pool)
        if inn in cs:
            continue
        trial = (cs - {out}) | {inn}
        s = score(trial)
        if s >= best:
            cs, best = trial, s
    return "".join(sorted(cs))


def deck_rows(game):
    colour = []
    for name, pts, n in COLOURS:
        colour += [(name, pts)] * n
    by_id = {RANKS[i % 13] + SUITS[i // 13]: (RANKS[i % 13] + SUITS[i // 13], k) + colour[i]
             for i, k in enumerate(game.kanji)}
    out = [by_id[r + s] for s in SUITS for r in RANKS]
    return out + [("JK1", "々", "-", 0), ("JK2", "々", "-", 0)]


def main():
    ap = argparse.ArgumentParser(description="Compare 熟語麻雀 kanji sets; write the chosen deck.")
    ap.add_argument("source", help="naist-jdic_1%%3a0.4.3-21_all.deb or naist-jdic.dic")
    ap.add_argument("--margin", type=int, default=derive.MARGIN)
    ap.add_argument("--write", metavar="KANJI_TSV", help="write the chosen deck here")
    ap.add_argument("--set", default="balanced-4", metavar="NAME",
                    help="the candidate --write writes (default balanced-4, the chosen one)")
    a = ap.parse_args()
    words = derive.common_words(a.source, a.margin)
    cands = {
        "hand": HAND,
        "greedy": greedy(words, 300),
        "balanced-4": balanced(words, 100, HAND, 4),
        "balanced-5": balanced(words, 100, HAND, 5),
        "most-words-150": most_words(words, 400, HAND, 150),
    }
    chosen = a.set
    if chosen not in cands:
        ap.error(f"--set: one of {', '.join(cands)}")
    print(f"seed {SEED}; 天和 over {N_TENHO} hands, tenpai over {N_TENPAI5} 5-card hands,"
          f" one-away over {N_AWAY6} 6-card hands not won")
    print("set            words 2-kanji 3-kanji X々  kanji≤2 kanji=0 maxdeg  天和   tenpai5 away6")
    print("               (lines) (pairs)  (sets)      (links)  (links) (links)")
    for name, ks in cands.items():
        assert len(set(ks)) == 52, (name, len(set(ks)))
        s = Game(set(ks), words).stats()
        print(f"{name:14} {s['words']:5} {s['n2']:7} {s['n3']:7} {s['dou']:3} {s['few']:8} {s['none']:7} {s['maxdeg']:6}"
              f"  {s['tenho']:6.2%} {s['tenpai5']:6.2%} {s['away6']:6.2%}")
        print("  ", "".join(sorted(ks)))
    if a.write:
        with open(a.write, "w", encoding="utf-8", newline="\n") as f:
            for row in deck_rows(Game(set(cands[chosen]), words)):
                f.write("\t".join(map(str, row)) + "\n")


if __name__ == "__main__":
    main()

"""Regenerate the golden data in this directory from the AisleRiot oracle.

Not part of the test run: the tests read only the JSON files. This script needs
the headless AisleRiot oracle (GNOME AisleRiot's real rules code), which is not
a project dependency::

    python tests/golden/make_golden.py /path/to/aisleriot-oracle/oracle

It writes ``deals.json`` (layouts), ``playthroughs.json`` (random playouts, every
ply) and ``perft.json`` (leaf counts at depth 1..3). Nothing here imports
tableaux: every expected value comes from the oracle alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).parent

# Oracle slot id -> our pile name (slot creation order in AisleRiot's rules).
KA = {
    **{i: f"foundation-{i + 1}" for i in range(4)},
    **{4 + i: f"tableau-{i + 1}" for i in range(9)},
    **{13 + i: f"reserve-{i + 1}" for i in range(7)},
}
EW = {
    0: "stock", 1: "waste", 2: "foundation-1", 3: "foundation-2", 4: "foundation-3", 5: "foundation-4",
    6: "tableau-1", 7: "tableau-2", 8: "tableau-3", 9: "tableau-4", 10: "reserve",
    11: "tableau-5", 12: "tableau-6", 13: "tableau-7", 14: "tableau-8",
}
NAMES = {"king-albert": KA, "eagle-wing": EW}
SHORT = {"foundation": "F", "tableau": "T", "reserve": "R", "stock": "S", "waste": "W"}

DEALS = [0, 1, 2, 17, 4294967295, 2147483648, 3141592653, 2718281828, 1234567890, 987654321]
PLAYTHROUGHS = {"king-albert": [(5, 150, 11), (4294967295, 150, 12)], "eagle-wing": [(7, 150, 21), (0, 150, 22)]}
PERFT = {"king-albert": [1, 0, 3141592653], "eagle-wing": [1, 0, 3141592653]}
PERFT_DEPTH = {"king-albert": 3, "eagle-wing": 4}


def run(oracle: str, game: str, deal: int, *extra: str, moves: list[dict] | None = None) -> list[dict]:
    args = [oracle, game, str(deal), *extra]
    stdin = None
    if moves is not None:
        args += ["--moves", "-"]
        stdin = "".join(json.dumps(m) + "\n" for m in moves)
    out = subprocess.run(args, input=stdin, capture_output=True, text=True, check=True, timeout=600)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def card(c: dict) -> str:
    text = c["card"].replace("10", "T")
    return text if c["up"] else text + "*"


def short(pile: str) -> str:
    kind, _, num = pile.partition("-")
    return SHORT[kind] + num


def notation(source: str, count: int, target: str) -> str:
    return f"{short(source)}{':' + str(count) if count != 1 else ''}>{short(target)}"


def piles(pos: dict, names: dict[int, str]) -> dict[str, str]:
    return {names[s["id"]]: " ".join(card(c) for c in s["cards"]) for s in pos["slots"]}


def actions(pos: dict) -> list[dict]:
    """Every distinct action: each drag, plus an effective click on the stock (double clicks repeat drags)."""
    out = [{"from": m["from"], "count": m["count"], "to": m["to"]} for m in pos["moves"]]
    out += [{"click": c["slot"]} for c in pos["clicks"] if c["result"]]
    return out


def moves_text(pos: dict, names: dict[int, str]) -> list[str]:
    ps = piles(pos, names)
    out = [notation(names[m["from"]], m["count"], names[m["to"]]) for m in pos["moves"]]
    for c in pos["clicks"]:
        if c["result"]:
            assert names[c["slot"]] == "stock"
            out.append("S>W" if ps["stock"] else f"W:{len(ps['waste'].split())}>S")
    return sorted(out)


def action_text(pos: dict, nxt: dict, names: dict[int, str]) -> str:
    a = nxt["action"]
    if "click" in a:
        ps = piles(pos, names)
        return "S>W" if ps["stock"] else f"W:{len(ps['waste'].split())}>S"
    if "double_click" in a:
        before = {s["id"]: len(s["cards"]) for s in pos["slots"]}
        grown = [s["id"] for s in nxt["slots"] if len(s["cards"]) > before[s["id"]]]
        return notation(names[a["double_click"]], 1, names[grown[0]])
    return notation(names[a["from"]], a["count"], names[a["to"]])


def make_deals(oracle: str) -> dict:
    out: dict = {
        "note": "Line 0 of `oracle GAME DEAL` (AisleRiot's real rules code, headless) for each deal; "
        "produced by tests/golden/make_golden.py. Piles bottom to top, '*' = face down, ten written T.",
    }
    for game, names in NAMES.items():
        out[game] = {str(d): piles(run(oracle, game, d)[0], names) for d in DEALS}
    return out


def make_playthroughs(oracle: str) -> dict:
    order = {game: list(names.values()) for game, names in NAMES.items()}
    out: dict = {
        "note": "`oracle GAME DEAL --random-playout PLIES --playout-seed SEED` (AisleRiot's real rules code), "
        "recorded by tests/golden/make_golden.py. Each ply: the move that led there (null at the deal), "
        "the piles in pile_order joined by '|' (bottom to top, '*' = face down), score, won, over "
        "(no legal action and not won), the status message, and the sorted legal moves (the oracle's "
        "drags plus its effective stock click, as S>W or W:N>S).",
        "pile_order": order,
        "playthroughs": [],
    }
    for game, runs in PLAYTHROUGHS.items():
        names = NAMES[game]
        for deal, plies, seed in runs:
            positions = run(oracle, game, deal, "--random-playout", str(plies), "--playout-seed", str(seed))
            rows = []
            for i, pos in enumerate(positions):
                ps = piles(pos, names)
                legal = moves_text(pos, names)
                rows.append({
                    "move": None if i == 0 else action_text(positions[i - 1], pos, names),
                    "piles": "|".join(ps[n] for n in order[game]),
                    "score": pos["score"],
                    "won": pos["won"],
                    "over": not pos["won"] and not legal,
                    "status": pos["message"].strip(),
                    "moves": " ".join(legal),
                })
            out["playthroughs"].append({"game": game, "deal": deal, "playout_seed": seed, "plies": rows})
    return out


def perft(oracle: str, game: str, deal: int, depth: int) -> list[int]:
    """Leaf counts at depth 1..depth, by replaying every action sequence in the oracle."""
    counts = [0] * depth
    frontier: list[list[dict]] = [[]]
    for d in range(depth):
        nxt = []
        for line in frontier:
            pos = run(oracle, game, deal, moves=line)[-1]
            acts = actions(pos)
            counts[d] += len(acts)
            if d + 1 < depth:
                nxt += [line + [a] for a in acts]
        frontier = nxt
    return counts


def make_perft(oracle: str) -> dict:
    out: dict = {
        "note": "Number of action sequences of exactly N plies (leaf nodes, like chess perft) from each deal, "
        "counted by tests/golden/make_golden.py: it replays every sequence with `oracle GAME DEAL --moves -` "
        "(AisleRiot's real rules code) and counts the legal drags plus the effective stock click at each node.",
        "cases": [],
    }
    for game, deals in PERFT.items():
        for deal in deals:
            out["cases"].append({"game": game, "deal": deal, "counts": perft(oracle, game, deal, PERFT_DEPTH[game])})
            print(out["cases"][-1], file=sys.stderr)
    return out


def main() -> None:
    oracle = sys.argv[1]
    what = sys.argv[2:] or ["deals", "playthroughs", "perft"]
    makers = {"deals": make_deals, "playthroughs": make_playthroughs, "perft": make_perft}
    for name in what:
        data = makers[name](oracle)
        (HERE / f"{name}.json").write_text(json.dumps(data, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()

"""Evaluation helpers of the ``search`` bot: static board tables, a value function over
:class:`~engine.state.GameState`, and a fast rule policy used inside playouts.

Everything here reads a (determinized) game state; the bot never sees the real hidden
state. Values are in "victory point tenths": a point is worth :data:`VP` units.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from engine import actions as A
from engine.actions import Action
from engine.board.tables import GENERIC_HARBOR, Board
from engine.game import Game
from engine.phases import Phase
from engine.state import GameState

VP: Final = 10.0
WIN: Final = 1000.0
PIPS: Final = (0, 0, 1, 2, 3, 4, 5, 0, 5, 4, 3, 2, 1)
"""Ways to roll each sum 0..12 (out of 36)."""
BASE_WEIGHT: Final = (1.05, 1.05, 0.8, 1.0, 1.0)
"""Baseline worth of one pip of each resource (brick, lumber, wool, grain, ore)."""
COSTS: Final = (
    (1, 1, 1, 1, 0),  # settlement
    (0, 0, 0, 2, 3),  # city
    (0, 0, 1, 1, 1),  # development card
    (1, 1, 0, 0, 0),  # road
)
DEV_WORTH = (1.0, 0.8, 1.0, 1.0, 0.0)
"""Worth of an unplayed development card in hand, by kind (points count separately)."""
READY = (2.2, 3.0, 1.0, 0.4)
"""Worth of holding the full cost of a settlement, city, development card, road."""
PROD_EARLY, PROD_LATE = 0.45, 0.2
"""Worth of one weighted pip of production early in the game and near its end."""
DISCARD = 1.0
"""Penalty per card at risk when the hand exceeds the discard limit."""


@dataclass(frozen=True, slots=True)
class BoardInfo:
    """Per-board tables computed once."""

    hex_pips: tuple[int, ...]
    weight: tuple[float, ...]
    """Worth of one pip of each resource, scarcer resources weigh more."""
    node_value: tuple[float, ...]
    """Static worth of a settlement spot: weighted pips, variety and harbor."""
    node_res: tuple[tuple[tuple[int, int, int], ...], ...]
    """Per intersection: (hex, resource, pips) of its producing hexes."""


_INFO: dict[int, tuple[Board, BoardInfo]] = {}


def board_info(board: Board) -> BoardInfo:
    """The cached :class:`BoardInfo` of ``board``."""
    hit = _INFO.get(id(board))
    if hit is not None and hit[0] is board:
        return hit[1]
    numbers = board.layout.numbers
    hex_pips = tuple(PIPS[n] if n else 0 for n in numbers)
    totals = [0.0] * 5
    for h, r in enumerate(board.hex_resource):
        if r >= 0:
            totals[r] += hex_pips[h]
    mean = sum(totals) / 5
    weight = tuple(
        BASE_WEIGHT[r] * min(1.4, max(0.75, (mean / max(totals[r], 1.0)) ** 0.5)) for r in range(5)
    )
    node_res: list[tuple[tuple[int, int, int], ...]] = []
    node_value: list[float] = []
    for v in range(board.num_nodes):
        entries = tuple(
            (h, board.hex_resource[h], hex_pips[h])
            for h in board.node_hexes[v]
            if board.hex_resource[h] >= 0 and hex_pips[h]
        )
        node_res.append(entries)
        value = sum(weight[r] * p for _, r, p in entries)
        value += 0.6 * len({r for _, r, _ in entries})
        harbor = board.node_harbor[v]
        if harbor == GENERIC_HARBOR:
            value += 1.0
        elif harbor >= 0:
            value += 0.8 + 0.15 * sum(p for _, r, p in entries if r == harbor)
        node_value.append(value)
    info = BoardInfo(hex_pips, weight, tuple(node_value), tuple(node_res))
    _INFO[id(board)] = (board, info)
    return info


def production(s: GameState, info: BoardInfo) -> list[list[float]]:
    """Expected pips per seat and resource, the robber's hex producing nothing."""
    prod = [[0.0] * 5 for _ in range(s.n)]
    robber, node_res, kinds = s.robber, info.node_res, s.node_kind
    for v, owner in enumerate(s.node_owner):
        if owner >= 0:
            row, k = prod[owner], kinds[v]
            for h, r, p in node_res[v]:
                if h != robber:
                    row[r] += p * k
    return prod


def free_spot(s: GameState, v: int) -> bool:
    return s.node_owner[v] == -1 and not s.blocked[v]


def expansion(s: GameState, seat: int, info: BoardInfo) -> tuple[float, float, int]:
    """(best spot on the network, best spot one road away, number of open spots)."""
    owner, blocked, values = s.node_owner, s.blocked, info.node_value
    board, edge_owner = s.board, s.edge_owner
    best0 = best1 = 0.0
    spots = 0
    for v in s.road_nodes[seat]:
        o = owner[v]
        if o == -1:
            if not blocked[v]:
                spots += 1
                if values[v] > best0:
                    best0 = values[v]
        elif o != seat:
            continue  # an opponent's building cuts the network here
        for e, u in zip(board.node_edges[v], board.node_neighbours[v], strict=False):
            if edge_owner[e] == -1 and owner[u] == -1 and not blocked[u] and values[u] > best1:
                best1 = values[u]
    return best0, best1, spots


def seat_values(s: GameState, info: BoardInfo) -> list[float]:
    """Worth of each seat's position (same scale for everyone)."""
    n = s.n
    if s.phase is Phase.GAME_OVER and s.winner >= 0:
        return [WIN if p == s.winner else 0.0 for p in range(n)]
    prod = production(s, info)
    weight = info.weight
    top = max(s.public_vp[p] + s.devs[p][4] for p in range(n))
    late = min(1.0, max(0.0, (top - 4) / 6))  # 0 early, 1 when someone is close to winning
    prod_w = PROD_EARLY - (PROD_EARLY - PROD_LATE) * late
    out: list[float] = []
    for p in range(n):
        vp = s.public_vp[p] + s.devs[p][4]
        value = VP * vp
        if vp >= s.config.vp_to_win:
            value += WIN / 2
        row = prod[p]
        eff = sum(weight[r] * row[r] for r in range(5))
        variety = sum(1 for r in range(5) if row[r])
        value += prod_w * (eff + 2.0 * variety)
        ratios = s.ratios[p]
        for r in range(5):
            if ratios[r] == 2:
                value += 0.05 * row[r]
            elif ratios[r] == 3:
                value += 0.02 * row[r]
        # Room to grow.
        if s.settlements_left[p]:
            best0, best1, spots = expansion(s, p, info)
            value += 0.12 * best0 + 0.06 * best1 + 0.8 * min(spots, 2)
        else:
            spots = 0
        # Cards in hand, and how close they are to a build.
        hand = s.hands[p]
        total = hand[0] + hand[1] + hand[2] + hand[3] + hand[4]
        value += 0.3 * sum(min(hand[r], 3) * weight[r] for r in range(5))
        best_ready = 0.0
        for i, cost in enumerate(COSTS):
            if i == 0 and not (spots and s.settlements_left[p]):
                continue
            if i == 1 and not (s.cities_left[p] and s.settlements_left[p] < 5):
                continue
            if i == 2 and not any(s.deck):
                continue
            if i == 3 and not (s.roads_left[p] and s.buildable[p]):
                continue
            missing = sum(max(0, cost[r] - hand[r]) for r in range(5))
            need = sum(cost)
            worth = READY[i]
            ready = worth * max(0.0, 1.0 - missing / need) ** 1.5
            if ready > best_ready:
                best_ready = ready
        value += best_ready
        if total > s.config.discard_limit:
            value -= DISCARD * (total // 2)
        # Development cards and the two special cards' races.
        devs = s.devs[p]
        value += sum(DEV_WORTH[k] * devs[k] for k in range(4))
        knights = s.knights[p]
        value += 0.7 * knights
        holder = s.largest_army
        if holder != p:
            target = max(3, s.knights[holder] + 1) if holder >= 0 else 3
            if knights + devs[0] >= target:
                value += 4.0
        length = s.road_len[p]
        value += 0.4 * min(length, 10)
        if s.longest_road != p:
            holder_len = s.road_len[s.longest_road] if s.longest_road >= 0 else 4
            if length >= holder_len:
                value += 2.0
        out.append(value)
    return out


def utility(s: GameState, seat: int, info: BoardInfo) -> float:
    """``seat``'s value relative to its opponents (the leader counts most)."""
    values = seat_values(s, info)
    mine = values[seat]
    others = [v for p, v in enumerate(values) if p != seat]
    return mine - 0.5 * max(others) - 0.15 * sum(others)


# --- the fast playout policy --------------------------------------------------------------


def _can_pay(hand: list[int], cost: tuple[int, ...]) -> bool:
    return all(hand[r] >= cost[r] for r in range(5))


def trade_toward(s: GameState, seat: int, cost: tuple[int, ...]) -> Action | None:
    """A maritime trade that brings ``cost`` one card closer without giving up a card
    of it that is needed, or None; only when the cost is then within one more trade."""
    hand, ratios, bank = s.hands[seat], s.ratios[seat], s.bank
    missing = [r for r in range(5) if hand[r] < cost[r] and bank[r]]
    if not missing:
        return None
    spare = [hand[r] - cost[r] - ratios[r] for r in range(5)]
    short = sum(max(0, cost[r] - hand[r]) for r in range(5))
    budget = sum(max(0, hand[r] - cost[r]) // ratios[r] for r in range(5))
    if budget < short:
        return None
    give = max(range(5), key=lambda r: spare[r])
    if spare[give] < 0:
        return None
    return A.MARITIME[give][missing[0]]


def robber_choice(s: GameState, info: BoardInfo, legal: list[Action]) -> Action:
    """Block the strongest opponent's best hex away from our own buildings; rob the
    victim with the most cards."""
    me = s.current
    vps = [s.public_vp[p] + 1 for p in range(s.n)]
    owner, kinds, hex_nodes, pips = s.node_owner, s.node_kind, s.board.hex_nodes, info.hex_pips
    best: Action = legal[0]
    best_score = -1e9
    for a in legal:
        assert isinstance(a, A.MoveRobber)
        score = 0.0
        for v in hex_nodes[a.hex]:
            o = owner[v]
            if o == me:
                score -= 3.0 * kinds[v] * pips[a.hex]
            elif o >= 0:
                score += vps[o] * kinds[v] * pips[a.hex] * 0.3
        if a.victim is not None:
            score += 1.0 + 0.3 * min(sum(s.hands[a.victim]), 8)
        if score > best_score:
            best, best_score = a, score
    return best


def best_road(s: GameState, seat: int, info: BoardInfo, legal: list[Action]) -> Action | None:
    """The road leading to the best open spot (None if no road leads anywhere useful)."""
    owner, blocked, values = s.node_owner, s.blocked, info.node_value
    board = s.board
    best: Action | None = None
    best_score = 0.0
    for a in legal:
        if not isinstance(a, A.BuildRoad):
            continue
        score = 0.0
        for u in board.edge_nodes[a.edge]:
            if owner[u] == -1 and not blocked[u] and u not in s.road_nodes[seat]:
                score = max(score, values[u])
            for w in board.node_neighbours[u]:
                if owner[w] == -1 and not blocked[w] and w not in s.road_nodes[seat]:
                    score = max(score, 0.6 * values[w])
        if score > best_score:
            best, best_score = a, score
    return best


def fast_action(game: Game, info: BoardInfo) -> Action:
    """A cheap, sensible action for whoever decides (the playout policy)."""
    s = game.state
    legal = game.legal_actions()
    phase = s.phase
    if len(legal) == 1:
        return legal[0]
    p = s.decider
    if phase is Phase.ROLL:
        if A.KNIGHT in legal:
            for v in s.board.hex_nodes[s.robber]:
                if s.node_owner[v] == p:
                    return A.KNIGHT
        return A.ROLL
    if phase is Phase.DISCARD:
        hand = s.hands[p]
        return A.DISCARDS[max(range(5), key=lambda r: hand[r] * (1.0 / info.weight[r]))]
    if phase is Phase.MOVE_ROBBER:
        return robber_choice(s, info, legal)
    if phase is Phase.TRADE_RESPONSE:
        return A.REJECT
    if phase is Phase.TRADE_CONFIRM:
        return A.CANCEL
    if phase is Phase.ROAD_BUILDING:
        return best_road(s, p, info, legal) or legal[0]
    if phase is Phase.SETUP_SETTLEMENT:
        return max(legal, key=lambda a: info.node_value[a.node])  # type: ignore[attr-defined]
    if phase is Phase.SETUP_ROAD:
        return best_road(s, p, info, legal) or legal[0]
    # Main phase.
    hand = s.hands[p]
    cities = [a for a in legal if isinstance(a, A.BuildCity)]
    if cities:
        return max(cities, key=lambda a: info.node_value[a.node])
    settlements = [a for a in legal if isinstance(a, A.BuildSettlement)]
    if settlements:
        return max(settlements, key=lambda a: info.node_value[a.node])
    has_spot = s.settlements_left[p] and any(free_spot(s, v) for v in s.road_nodes[p])
    if has_spot:
        trade = trade_toward(s, p, COSTS[0])
        if trade is not None and trade in legal:
            return trade
    if s.cities_left[p] and s.settlements_left[p] < 5:
        trade = trade_toward(s, p, COSTS[1])
        if trade is not None and trade in legal:
            return trade
    if _can_pay(hand, COSTS[3]) and not has_spot and s.roads_left[p]:
        road = best_road(s, p, info, legal)
        if road is not None:
            return road
    if A.BUY_DEV in legal and not (hand[3] >= 2 and hand[4] >= 2):
        return A.BUY_DEV
    return A.END_TURN

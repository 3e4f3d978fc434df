"""The :class:`Game` facade: create a game from a seed, query it, apply actions."""

from __future__ import annotations

from engine.actions import Action, CounterTrade, ProposeTrade
from engine.board.layouts import BoardLayout, make_layout
from engine.config import RulesConfig
from engine.errors import IllegalActionError, InvalidActionError
from engine.observation import Observation, observe
from engine.outcome import Outcome
from engine.phases import GAME_OVER, Phase
from engine.rng import GameChance, Seed
from engine.rules.apply import apply_action
from engine.rules.explain import explain_illegal
from engine.rules.legal import BY_PHASE
from engine.rules.scoring import placings
from engine.rules.trade import offer_problem
from engine.state import GameState


class Game:
    """One game of Catan. All randomness comes from ``seed``.

    >>> game = Game.new(RulesConfig(), seed=7)
    >>> game.phase.label, game.decider
    ('setup_settlement', 0)
    """

    __slots__ = ("_legal", "seed", "state")

    def __init__(self, state: GameState, seed: Seed) -> None:
        self.state = state
        self.seed = seed
        self._legal: list[Action] | None = None

    @classmethod
    def new(
        cls, config: RulesConfig | None = None, seed: Seed = 0, layout: BoardLayout | None = None
    ) -> Game:
        """A new game; the board comes from the seed unless ``layout`` is given (see
        :mod:`engine.rng` for what a seed may be)."""
        config = config or RulesConfig()
        chance = GameChance.from_seed(seed)
        if layout is None:
            layout = make_layout(config.board, chance.board)
        return cls(GameState.new(config, layout, chance), seed)

    # --- reading ---------------------------------------------------------------------

    @property
    def config(self) -> RulesConfig:
        return self.state.config

    @property
    def layout(self) -> BoardLayout:
        return self.state.board.layout

    @property
    def phase(self) -> Phase:
        return self.state.phase

    @property
    def decider(self) -> int:
        """The seat that must decide now."""
        return self.state.decider

    @property
    def current_seat(self) -> int:
        """The seat whose turn it is."""
        return self.state.current

    @property
    def is_over(self) -> bool:
        return self.state.phase is GAME_OVER

    def legal_actions(self) -> list[Action]:
        """All legal actions for :attr:`decider` (do not mutate the list)."""
        if self._legal is None:
            s = self.state
            self._legal = BY_PHASE[s.phase](s)
        return self._legal

    def observe(self, seat: int | None, *, with_legal: bool | None = None) -> Observation:
        """What ``seat`` may know (None: a spectator). Legal actions are attached when
        ``seat`` is the decider (or when ``with_legal`` says so)."""
        s = self.state
        if with_legal is None:
            with_legal = seat == s.decider
        if not with_legal:
            return observe(s, seat, ())
        legal = self._legal
        if legal is None:
            legal = self._legal = BY_PHASE[s.phase](s)
        return observe(s, seat, legal)

    @property
    def outcome(self) -> Outcome | None:
        s = self.state
        if s.phase is not Phase.GAME_OVER:
            return None
        return Outcome(
            termination=s.termination,
            winner=None if s.winner < 0 else s.winner,
            points=tuple(s.total_vp(p) for p in range(s.n)),
            placings=tuple(placings(s)),
            turns=s.turn,
        )

    # --- playing ---------------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` (naming the rule) unless ``action`` is legal."""
        if action in self.legal_actions():
            return
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an action: {action!r}")
        s = self.state
        if isinstance(action, (ProposeTrade, CounterTrade)) and self._trade_allowed(action):
            return
        raise IllegalActionError(f"seat {s.decider}: {action}: {explain_illegal(s, action)}")

    def _trade_allowed(self, action: ProposeTrade | CounterTrade) -> bool:
        s = self.state
        if isinstance(action, ProposeTrade):
            # Any well-formed offer is legal whenever the one-for-one offers are.
            if not any(isinstance(a, ProposeTrade) for a in self.legal_actions()):
                return False
            problem = offer_problem(s, action.give, action.get, s.current)
        else:
            if s.phase is not Phase.TRADE_RESPONSE:
                return False
            problem = offer_problem(s, action.give, action.get, s.decider)
        if problem:
            raise IllegalActionError(f"seat {s.decider}: {action}: {problem}")
        return True

    def apply(self, action: Action) -> object:
        """Check and apply ``action`` for the decider; return its chance outcome."""
        legal = self._legal
        if legal is None:
            s = self.state
            legal = self._legal = BY_PHASE[s.phase](s)
        for known in legal:  # legal actions are interned: identity first, == if need be
            if known is action:
                break
        else:
            if action not in legal:
                self.check(action)
        self._legal = None
        return apply_action(self.state, action, None)

    def apply_unchecked(self, action: Action, forced: object = None) -> object:
        """Apply without checking (for search over known-legal actions and replays)."""
        self._legal = None
        return apply_action(self.state, action, forced)

    def copy(self) -> Game:
        """An independent copy, including the random generator's state."""
        return Game(self.state.copy(), self.seed)

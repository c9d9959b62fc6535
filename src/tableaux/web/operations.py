"""The game operations behind the routes: take a stored game up, change it, and tell the truth about a change.

The engine is the authority: every answer is a view (:mod:`tableaux.web.views`). The database is the
truth: each change is committed before the answer goes out; live games are only a cache, and a stored
game is taken up from its row alone (:mod:`tableaux.web.history`), so any process answers any request
in about the same time, whatever the game's length. A rejected request changes nothing.

Each change carries a request id: the page's ``Idempotency-Key``, or one made here. It is stored in the
change's own transaction, so whether a change was stored is always a question the database can answer:

- a change sent again after its first answer was lost, and that was stored, is answered with the game as
  it is (200, as the first try was), never applied twice, whichever process gets it;
- a change whose commit was on its way when the connection failed is settled at once when the database
  still answers (the request id is looked up); when it does not, the answer says the outcome is unknown
  (503), and sending the same request again settles it.
"""

from __future__ import annotations

import hashlib
import itertools
import re
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from .. import catalogue
from ..advice.effort import Action, Effort
from ..advice.hints import Hint, ended_hint, heuristic_hint
from ..i18n import _, ngettext
from ..i18n import current as current_language
from ..play.game import Game
from ..play.reading import pile_summary
from ..rulebook.engine import IllegalMoveError, Move, NotationError, Rules
from ..rulebook.registry import rules as rules_for
from . import models as api
from .errors import ApiError
from .history import Kept, take_up
from .limits import REFUSALS
from .pool import SolverPool, hint_job
from .store import GameRecord, Made, QuotaExceeded, Request, RequestSeen, StaleVersionError, Store, StoreUnavailable
from .views import make_view, saved_game

NOTATION_ASIDE = re.compile(r" ?\([^()]*>[^()]*\)")
"""A move in notation given in brackets in a refusal ("(S>W)", "(W:3>S)"), in any language."""
CACHE_SIZE = 512
LOCK_STRIPES = 64


def fingerprint(method: str, path: str, body: str) -> str:
    """What a request asked for, in a few bytes: the same request id sent with another request is refused."""
    return hashlib.sha256(f"{method} {path} {body}".encode()).hexdigest()[:32]


_SERVER_IDS = ("server-" + secrets.token_urlsafe(9) + "-{}").format
"""Request ids this process makes: a random part of its own (no two processes share one) and a count."""
_COUNT = itertools.count()


def server_request() -> Request:
    """A request id for a change sent without one (a script): it still lets a lost commit be settled."""
    return Request(_SERVER_IDS(next(_COUNT)), "")


class Games:
    """Game operations. One lock stripe per game id serialises changes to the same game in this process;
    the version compare-and-swap in the store protects against other processes."""

    def __init__(self, store: Store, spend: Mapping[Action, Effort], pool: SolverPool) -> None:
        self.store = store
        self.spend = spend
        """Each action's effort in this app (:data:`tableaux.advice.effort.EFFORT`'s web row, or a test's)."""
        self.pool = pool
        self._cache: OrderedDict[str, tuple[int, Kept]] = OrderedDict()
        self._cache_lock = threading.Lock()
        self._locks = [threading.Lock() for _stripe in range(LOCK_STRIPES)]

    @contextmanager
    def _open(self, game_id: str, player: str) -> Iterator[tuple[GameRecord, Kept]]:
        with self._locks[hash(game_id) % LOCK_STRIPES]:
            record = self.store.get_game(game_id, player)
            if record is None:
                shown = repr(game_id) if len(game_id) <= 40 and game_id.isprintable() else _("with that id")
                raise ApiError(404, _("no game {shown} here: it does not exist or belongs to another player").format(
                    shown=shown))
            with self._cache_lock:
                cached = self._cache.get(game_id)
            kept = cached[1] if cached is not None and cached[0] == record.version else take_up(self.store, record)
            try:
                yield record, kept
            except ApiError:
                raise  # refused before anything changed: the cached game is still right
            except BaseException:
                self._forget(game_id)
                raise

    def _remember(self, record: GameRecord, kept: Kept) -> None:
        with self._cache_lock:
            self._cache[record.id] = (record.version, kept)
            self._cache.move_to_end(record.id)
            while len(self._cache) > CACHE_SIZE:
                self._cache.popitem(last=False)

    def _forget(self, game_id: str) -> None:
        with self._cache_lock:
            self._cache.pop(game_id, None)

    # --- new games ------------------------------------------------------------------------------
    def create(
        self, player: str, name: str, deal: int | None, winnable: bool = False, difficulty: str | None = None, *,
        request: Request | None = None, quotas: Sequence[tuple[str, int]] = (),
    ) -> dict[str, Any]:
        """A new game: deal ``deal``, a random one, or (``winnable``/``difficulty``) one the catalogue grades.

        The catalogue is read, never computed, so a graded deal starts as fast as any other. A request id
        that made a game already is answered with that game, and counts no new game against ``quotas``.
        """
        grade = None
        if winnable or difficulty is not None:
            entry = catalogue.pick(name, winnable=True, difficulty=difficulty)
            deal, grade = entry.deal, entry.grade
        if deal is None:
            deal = secrets.randbelow(api.MAX_DEAL + 1)
        return self._new(player, name, deal, request=request, quotas=quotas, grade=grade)[0]

    def daily(self, player: str, name: str, *, request: Request | None = None,
              quotas: Sequence[tuple[str, int]] = ()) -> tuple[dict[str, Any], bool]:
        """Today's daily deal (UTC) of ``name``: the player's game of it if there is one, else a new one.

        Returns the view and whether the game was created now. A daily deal is played once: a finished one
        is shown as it ended. The day's deal is the catalogue's (:func:`tableaux.catalogue.daily`) until a first
        player has it, then that game's: a catalogue built again by a later solver can draw another deal for a
        day, and a race must not change its deal halfway through the day.
        """
        date = catalogue.today().isoformat()
        record = self.store.daily_game(player, name, date)
        if record is not None:
            return self.view(record.id, player), False
        pinned = self.store.daily_deal(name, date)
        if pinned is None:
            entry = catalogue.daily(name, date)
            pinned = entry.deal, entry.grade
        deal, grade = pinned
        return self._new(player, name, deal, request=request, quotas=quotas, daily=date, grade=grade)

    def _new(self, player: str, name: str, deal: int, *, request: Request | None, quotas: Sequence[tuple[str, int]],
             daily: str | None = None, grade: str | None = None) -> tuple[dict[str, Any], bool]:
        rules_for(name)  # an unknown name is refused before anything is stored
        asked = request or server_request()
        if request is not None:  # sent again: answered without counting another game
            made = self.store.find_change(player, request.id)
            if made is not None:
                return self._answer_again(made, request, player), False
        try:
            record = self.store.create_game(player, name, deal, daily=daily, grade=grade, request=asked,
                                            quotas=quotas)
        except QuotaExceeded as exc:
            raise too_many(exc) from None
        except RequestSeen as seen:
            return self._answer_again(seen.made, asked, player), False
        except StoreUnavailable as exc:
            return self._settle(exc, player, asked), False
        kept = take_up(self.store, record)
        self._remember(record, kept)
        return make_view(record, kept.game), True

    # --- reading ------------------------------------------------------------------------------
    def resume(self, player: str, name: str | None) -> dict[str, Any] | None:
        """The player's unfinished game (of ``name``, if given), or None: a new player is not an error."""
        record = self.store.current_game(player, name)
        return None if record is None else self.view(record.id, player)

    def inspect(self, game_id: str, player: str, what: Callable[[GameRecord, Game], Any]) -> Any:
        """``what(record, game)`` for the player's game, read under its lock (the game is not changed)."""
        with self._open(game_id, player) as (record, kept):
            self._remember(record, kept)
            return what(record, kept.game)

    def view(self, game_id: str, player: str) -> dict[str, Any]:
        with self._open(game_id, player) as (record, kept):
            self._remember(record, kept)
            return make_view(record, kept.game)

    def refusal(self, game_id: str, player: str, source: str, count: int, target: str) -> dict[str, Any]:
        """Why the rules refuse the move in the stored game, as a sentence; a page asks only once it has refused
        one from its view's legal moves, and the rules stay the engine's alone. The piles are named in words, as
        the page names them, and a hint in notation ("(S>W)") is left out: a player who drags cards has no key
        to it."""
        with self._open(game_id, player) as (record, kept):
            self._remember(record, kept)
            game = kept.game
            move = read_move(game, api.MoveSpec(source=source, count=count, target=target))
            rules = game.rules
            why = rules.why_illegal(game.state, rules.to_raw(move), rules.pile_word_names())
            if why is None:
                return {"move": str(move), "reason": None}
            why = NOTATION_ASIDE.sub("", why)
            return {"move": str(move), "reason": why[:1].upper() + why[1:] + "."}

    def current(self, player: str, name: str | None) -> dict[str, Any]:
        record = self.store.current_game(player, name)
        if record is None:
            raise ApiError(404, _("no unfinished {game} game to resume; start one with POST /api/games").format(
                game=name) if name else _("no unfinished game to resume; start one with POST /api/games"))
        return self.view(record.id, player)

    # --- changing -----------------------------------------------------------------------------
    def change(
        self, game_id: str, player: str, version: int | None, action: Callable[[Game], object], *,
        request: Request | None = None, assisted: bool | None = None, give_up: bool = False,
        after_loss: bool = False, check: Callable[[GameRecord, Game], None] | None = None,
        leaving_the_end: bool = False, played: float | None = None, solution: bool = False,
    ) -> dict[str, Any]:
        """Apply ``action`` to the game made at ``version`` (None: as it is now) and store the result before
        answering.

        ``request`` identifies the change (the page's ``Idempotency-Key``): a change sent again whose first
        try was stored is answered with the game as it is, not applied twice. ``assisted`` marks the game
        as played with the solver's help, ``give_up`` ends it as lost, and ``after_loss`` is for the one
        change a given-up game takes (going back to where it could be won). ``check`` may refuse the change
        (with :class:`ApiError`) from the stored record, before ``action``. ``leaving_the_end``: the action
        takes moves back. From a game that is over (no move left, not won) that marks it assisted: an ended
        game may be asked where it was lost, which looks at every card (the page asks at once), so playing on
        from there is playing with the solver's help. ``played``: the game's time played as the page counts
        it (:mod:`tableaux.web.clock` bounds it). ``solution``: the move is one of the solver's line that the page
        plays for "Show solution"; it marks the game assisted, and a win it makes is the solution's, not the
        player's (the view says so every time the game is shown).
        """
        asked = request or server_request()
        try:
            return self._change(game_id, player, version, action, asked, assisted=assisted, give_up=give_up,
                                after_loss=after_loss, check=check, leaving_the_end=leaving_the_end,
                                played=played, solution=solution)
        except ApiError as refusal:
            # A stale version or a move no longer legal is what a change sent again after it was stored
            # meets: if its request id is stored, that is what happened.
            if request is not None and refusal.status in (409, 422):
                made = self.store.find_change(player, request.id)
                if made is not None:
                    return self._answer_again(made, request, player)
            raise
        except RequestSeen as seen:
            return self._answer_again(seen.made, asked, player)
        except StoreUnavailable as exc:
            return self._settle(exc, player, asked)

    def _change(
        self, game_id: str, player: str, version: int | None, action: Callable[[Game], object], request: Request,
        *, assisted: bool | None, give_up: bool, after_loss: bool,
        check: Callable[[GameRecord, Game], None] | None, leaving_the_end: bool, played: float | None,
        solution: bool,
    ) -> dict[str, Any]:
        with self._open(game_id, player) as (record, kept):
            game = kept.game
            if version is not None:
                check_version(record, game, version)
            if solution or (leaving_the_end and not record.won and game.is_over()):
                assisted = True
            if record.won:
                raise ApiError(422, _("this game is won and finished; start a new game"))
            if record.given_up and not after_loss:
                raise ApiError(422, _("this game was given up; start a new game, or go back to where it could "
                                      "still be won (POST .../rewind)"))
            if check is not None:
                check(record, game)
            action(game)  # raises ApiError and changes nothing when the request is not allowed
            change = kept.change(won=game.is_won(), assisted=assisted, given_up=give_up,
                                 solution_won=solution and game.is_won())
            try:
                new = self.store.save_change(record, change, request, time_played=played)
            except StaleVersionError:
                self._forget(game_id)
                fresh = self.store.get_game(game_id, player)
                assert fresh is not None
                raise conflict(fresh, take_up(self.store, fresh).game,
                               _("the game was changed elsewhere meanwhile")) from None
            kept.saved()
            self._remember(new, kept)
            return make_view(new, game)

    def _answer_again(self, made: Made, request: Request, player: str) -> dict[str, Any]:
        """The answer to a request whose id is stored already: the game it made or changed, as it is now."""
        if made.fingerprint != request.fingerprint:
            raise ApiError(422, _("this Idempotency-Key was already used for a different request; send a new key "
                                  "with each change (the same key only with the same request, to send it again)"))
        return self.view(made.game_id, player)

    def _settle(self, failure: StoreUnavailable, player: str, request: Request) -> dict[str, Any]:
        """A change whose outcome is unknown: ask the database whether its request id was stored.

        Found stored, the answer is the game as it is, read again; a database that fails during that read
        leaves the player where the first failure did (the change's outcome not known to them: the same
        request sent again says), never told that nothing changed."""
        if not failure.outcome_unknown:
            raise failure
        try:
            made = self.store.find_change(player, request.id)
        except StoreUnavailable:
            raise failure from None
        if made is None:
            raise StoreUnavailable(failure.reason) from None  # not stored: nothing changed, try again
        try:
            return self._answer_again(made, request, player)
        except StoreUnavailable:
            raise failure from None

    # --- hints --------------------------------------------------------------------------------
    def look(
        self, game_id: str, player: str, heuristic: bool
    ) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any] | None]:
        """The saved game (every move, for a worker), the view, and with ``heuristic`` the rule of thumb's hint."""
        with self._open(game_id, player) as (record, kept):
            self._remember(record, kept)
            game = kept.game
            hint = None
            ended = ended_hint(game)  # won, or no move left: said at once, in the words every front end uses
            if record.given_up:
                hint = dict(Hint(None, "none", _("The game was given up.")).to_dict())
            elif ended is not None:
                hint = dict(ended.to_dict())
            elif heuristic:
                hint = dict(heuristic_hint(game).to_dict())
                if hint["source"] == "heuristic":
                    busy = _("The solver is busy with other hints. {hint}")
                    hint["message"] = busy.format(hint=hint["message"])
                    hint["reason"] = busy.format(hint=hint["reason"]).strip()
            saved = saved_game(game) if hint is None else {}
            return saved, make_view(record, game), hint

    async def hint(self, game_id: str, player: str, mode: str = "fair", played: float | None = None,
                   client: str | None = None) -> dict[str, Any]:
        """The solver's hint, searched in the pool; the rule of thumb at once when the pool is full, or ``client``
        (the asking address) holds its share of it already.

        A hint that looked at face-down cards (``peeks``) marks the game assisted, as a solution shown does: the
        answer's view is the game so marked (``played``: the page's clock, stored with the mark).
        """
        from fastapi.concurrency import run_in_threadpool

        place = self.pool.reserve(client)
        try:
            saved, view, hint = await run_in_threadpool(self.look, game_id, player, place is None)
        except BaseException:
            if place is not None:
                self.pool.release(place)
            raise
        if place is not None:
            if hint is not None:  # nothing to search (a game won, given up or with no move left)
                self.pool.release(place)
            else:
                spend = self.spend["peek-hint" if mode == "peek" else "fair-hint"]
                hint = await self.pool.run(place, hint_job, saved, spend, mode, current_language())
                if hint is None:  # the worker died: answer anyway
                    *_ignored, hint = await run_in_threadpool(self.look, game_id, player, True)
        assert hint is not None
        if hint["peeks"] and not view["assisted"] and not view["won"] and not view["given_up"]:
            view = await run_in_threadpool(self.change, game_id, player, None, lambda game: None, assisted=True,
                                           played=played)
        return {"hint": hint, "view": view}


def too_many(exc: QuotaExceeded) -> ApiError:
    """429 with Retry-After: which limit was reached, and when a new game can start (and a line in the log, at most
    one a minute: :data:`~tableaux.web.limits.REFUSALS`)."""
    address = exc.bucket.removeprefix("address:") if exc.bucket.startswith("address:") else None
    REFUSALS.note("new games", lambda count: ngettext(
        "{count} new game refused, over a player's or an address's limit a minute, since the last such line.",
        "{count} new games refused, over a player's or an address's limit a minute, since the last such line.",
        count).format(count=count), source=address)
    if exc.bucket.startswith("player:"):
        message = _("too many new games: at most {limit} a minute for each player; try again in {seconds} s")
    else:
        message = _("too many new games: at most {limit} a minute from one address; try again in {seconds} s")
    return ApiError(429, message.format(limit=exc.limit, seconds=exc.retry_after),
                    headers={"Retry-After": str(exc.retry_after)})


# --- a stale version ------------------------------------------------------------------------
def conflict(record: GameRecord, game: Game, why: str) -> ApiError:
    """The one 409: nothing was changed, and the answer carries the game as it is now to play on from."""
    return ApiError(409, _("{why}; here is the current position").format(why=why), view=make_view(record, game))


def check_version(record: GameRecord, game: Game, version: int) -> None:
    """Refuse a change chosen in a view older than the stored game (another tab moved meanwhile), or at a version
    the game never reached (a client's own count gone wrong)."""
    if version > record.version:
        raise conflict(record, game, _("version {version} is ahead of the game, which is at version {stored}: send "
                                       "the version of the last view").format(version=version, stored=record.version))
    if version != record.version:
        raise conflict(record, game, _("the game has changed (version {stored}, the request was made at version "
                                       "{version})").format(version=version, stored=record.version))


# --- reading a move against the game --------------------------------------------------------
def read_move(game: Game, spec: api.MoveSpec | str) -> Move:
    """The move a request names, checked against this game (it may still be illegal).

    The contract has checked its shape; what is left depends on the game: its piles, and which count fits.
    """
    try:
        if isinstance(spec, str):
            return game.parse_move(spec)
        unknown = unknown_piles(game.rules, spec)
        if unknown:
            raise ApiError(422, unknown)
        if spec.count is None:
            return game.parse_move(f"{spec.source}>{spec.target}")
        return Move(spec.source, spec.count, spec.target)
    except (NotationError, IllegalMoveError) as exc:
        raise ApiError(422, str(exc)) from None


def unknown_piles(rules: Rules, spec: api.MoveSpec) -> str | None:
    """What is wrong when the game has no pile of that name (either or both), with the piles it has, once; else
    None. The contract took any text: only the game knows its piles."""
    names = rules.index
    source, target = (repr(pile) if pile not in names else None for pile in (spec.source, spec.target))
    if source is None and target is None:
        return None
    if source is not None and target is not None:
        # TRANSLATORS: "source" and "target" are the names of the move's fields in a request: keep them in English.
        what = _("unknown piles {source} as move source and {target} as move target").format(
            source=source, target=target)
    else:
        # TRANSLATORS: {role} is "source" or "target", the name of the move's field in a request, in English.
        what = _("unknown pile {pile} as move {role}").format(
            pile=source or target, role="source" if source is not None else "target")
    return _("{what}; the piles of {game} are {names} ({labels} in move text)").format(
        what=what, game=_(rules.title), names=", ".join(rules.pile_names), labels=pile_summary(rules))


def play_action(spec: api.MoveSpec | str) -> Callable[[Game], object]:
    def act(game: Game) -> None:
        move = read_move(game, spec)
        try:
            game.play(move)
        except (NotationError, IllegalMoveError) as exc:
            raise ApiError(422, str(exc)) from None

    return act


def undo_action(game: Game) -> None:
    if not game.played_count:
        raise ApiError(422, _("nothing to undo: no move has been played"))
    game.undo()


def redo_action(game: Game) -> None:
    if not game.redo_count:
        raise ApiError(422, _("nothing to redo: no undone move to replay"))
    game.redo()


def restart_action(game: Game) -> None:
    if not game.played_count:
        raise ApiError(422, _("nothing to restart: the game is already at the start of the deal"))
    game.restart()

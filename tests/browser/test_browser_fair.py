"""Fair play, graded deals and the daily deal, played in real headless Chromium (the solution shown is
test_browser_solution.py's).

The browser set-up (server, Chromium, the Player that checks every JSON response for face-down cards)
is conftest.py's and helpers/page.py's; expected answers come from the library (tableaux.advice.fair,
tableaux.catalogue, tableaux.solve), never from numbers typed in here.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import tableaux
from helpers.page import (
    SCREENSHOTS,
    SLOW,
    Browser,
    Page,
    Player,
    card,
    expect,
    menu_click,
    pile,
    show_solution,
    shrink_png,
    win_by_hand,
)
from helpers.page import send_moves as send_all
from helpers.time_zones import utc_date
from tableaux import catalogue, fair
from tableaux.advice.effort import effort
from tableaux.rulebook.cards import card_name, parse_card
from tableaux.solver import default_backend


def send_moves(page: Page, moves: list[Any]) -> None:
    send_all(page, [tableaux.Move.from_str(str(m)) for m in moves])


def shot(page: Page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    shrink_png(path)


def explanation(page: Page) -> str:
    """What the figure on the status line means, as a tap (a click, Enter) on it opens it; closed again after."""
    page.click("#chance-stat")
    info = page.locator("#chance-info")
    expect(info).to_be_visible()
    text = info.inner_text()
    page.keyboard.press("Escape")
    expect(info).to_be_hidden()
    return text


def test_a_new_game_shows_no_figure_until_its_own_is_worked_out(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    chance = page.locator("#chance")
    expect(chance).to_have_attribute("data-state", "done", timeout=SLOW)
    before = chance.inner_text()
    assert re.fullmatch(r"\d+%", before)
    page.evaluate("""() => {
        const figure = document.getElementById('chance');
        window.figuresShown = [];
        new MutationObserver(() => window.figuresShown.push(figure.textContent))
            .observe(figure, { childList: true, characterData: true, subtree: true });
    }""")
    menu_click(page, "#game-select")
    page.select_option("#game-select", "eagle-wing")
    expect(page.locator('[data-pile="stock"]')).to_be_visible()
    expect(chance).to_have_attribute("data-state", "done", timeout=SLOW)
    after = chance.inner_text()
    assert re.fullmatch(r"\d+%", after) and after != before, (before, after)  # deal 1 of each: 67% and 78%
    assert page.evaluate("window.figuresShown") == ["…", after]  # King Albert's figure went at once


def test_can_still_be_won_names_the_solvers_share_and_follows_each_move(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    chance = page.locator("#chance")
    expect(chance).to_have_attribute("data-state", "done", timeout=SLOW)
    expect(page.locator("#chance-stat")).to_contain_text(re.compile(r"^Winnable as far as seen \d+%$"))
    assert "Chance to win" not in page.locator("#status").inner_text()
    text = explanation(page)
    counted = re.search(r"wins (\d+) of (\d+) possible layouts?[^(]*?(?:could not tell for (\d+) of them )?\(", text)
    assert counted, text
    won, layouts, undecided = int(counted[1]), int(counted[2]), int(counted[3] or 0)
    assert 1 <= layouts <= fair.SAMPLES
    expect(chance).to_have_text(f"{round(won / layouts * 100)}%")
    if default_backend() == "c":
        # The layouts are drawn in one seeded order, so the server solved the first `layouts` of them, as the
        # library does untimed, except that its deadline (a busy machine) may have cut the last one to undecided.
        observation = tableaux.new_game("king-albert", 1).observation()

        def untimed(n: int) -> tuple[int, int]:  # (won, undecided) over the first n layouts, no deadline
            if n == 0:
                return 0, 0
            c = fair.win_chance(observation, n)
            return c.winnable, c.undecided

        won_before, undecided_before = untimed(layouts - 1)
        assert (won, undecided) in (untimed(layouts), (won_before, undecided_before + 1))
    assert "A solver that sees every card" in text and "not your chance of winning" in text
    assert "upper bound" in text and "doesn't peek" in text and "budget" not in text
    assert ("counts those as lost; with more time it could be higher" in text) == bool(undecided)
    first = chance.get_attribute("data-key")
    card(page, "AH", "reserve-5").dblclick()  # a move: the chance is worked out again, in the background
    expect(page.locator("#moves")).to_have_text("1")
    expect(chance).not_to_have_attribute("data-key", first or "", timeout=SLOW)
    expect(chance).to_have_attribute("data-state", "done", timeout=SLOW)
    assert (chance.get_attribute("data-key") or "").endswith(":1")


def test_the_explanation_opens_with_a_tap_on_a_phone_and_from_the_keyboard(browser: Browser, server: Any) -> None:
    p = Player(browser, server.url, {"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = p.open("?game=eagle-wing&deal=1")
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
        info = page.locator("#chance-info")
        page.tap("#chance-stat")
        expect(info).to_be_visible()
        expect(info).to_contain_text("A solver that sees every card")
        box = info.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, box  # on the screen
        page.tap("#board", position={"x": 200, "y": 700})  # a tap elsewhere closes it
        expect(info).to_be_hidden()
        page.focus("#chance-stat")
        page.keyboard.press("Enter")
        expect(info).to_be_visible()
        expect(page.get_by_role("button", name="Winnable as far as seen", expanded=True)).to_be_focused()
        page.keyboard.press("Escape")
        expect(info).to_be_hidden()
    finally:
        p.close()


def test_with_every_card_face_up_the_chance_says_it_is_the_solvers_verdict_not_an_estimate(player: Player) -> None:
    # Classic King Albert deals every card face up: no layouts of unseen cards to count, nothing to play blind.
    page = player.open("?game=king-albert-classic&deal=1")
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    text = explanation(page)
    assert "No card is hidden" in text, text
    assert "layout" not in text and "interval" not in text and "not your chance of winning" not in text


def test_a_lost_classic_position_says_during_play_where_it_was_lost_and_goes_back_there_as_assisted(
        player: Player) -> None:
    """Every card is face up, so the chance is the solver's verdict: once it says the position cannot be won, its
    explanation offers where the game was lost, as the end of a game does, without counting the game assisted."""
    from helpers.lost import losing_game

    game, k = losing_game("king-albert-classic")
    page = player.open(f"?game=king-albert-classic&deal={game.deal}")
    send_moves(page, game.moves_played)
    page.reload()
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    page.click("#chance-stat")
    expect(page.locator("#chance-info")).to_contain_text("this position cannot be won")
    page.click("#chance-where-lost")
    expect(page.locator("#chance-info .where-lost")).to_contain_text(f"You could still have won until move {k + 1}",
                                                                     timeout=SLOW)
    shot(page, "king-albert-classic-where-lost-during-play")
    assert not player.view()["assisted"]
    page.click("#lost-rewind")
    expect(page.locator("#moves")).to_have_text(str(k))
    expect(page.locator("#chance-info")).to_be_hidden()
    view = player.view()
    assert view["assisted"] and view["moves"] == k
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    page.click("#chance-stat")
    expect(page.locator("#chance-info")).to_contain_text("a winning line starts here")
    expect(page.locator("#chance-where-lost")).to_have_count(0)


def test_the_hint_rests_on_the_chances_layouts_or_says_how_far_the_time_let_it_go(player: Player) -> None:
    """Eagle Wing deal 11: the server's hint and its chance solve the same seeded layouts of the hidden cards.
    When the hint's time ran out first (a busy machine, the Python solver), it says after how many."""
    game = tableaux.new_game("eagle-wing", 11)
    page = player.open("?game=eagle-wing&deal=11")
    page.evaluate("localStorage.setItem('tableaux.setting.pileLabels', 'on')")
    page.reload()
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    chance = re.search(r"wins (\d+) of (\d+) possible layouts", explanation(page))
    assert chance, "no count in the explanation"
    page.click("#hint")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("From the solver:", timeout=SLOW)
    notice.locator("summary").click()  # the reason and the figures are behind "Why?"
    text = notice.inner_text()
    counted = re.search(
        r"after it, a solver that sees every card wins (\d+) of (\d+) possible layouts of the hidden cards", text)
    assert counted, text
    wins, layouts = int(counted[1]), int(counted[2])
    drawn = effort("fair-hint", "web").samples
    if layouts < drawn:  # the server's time limit ran out first (a busy machine): the hint says so
        assert f"The time ran out after {layouts} of the {drawn} layouts drawn." in text
        return
    assert layouts == drawn and "time ran out" not in text
    if default_backend() == "c":  # budgets in positions: the library's plan, untimed, is the server's
        plan = fair.plan(game.observation(), drawn, max_nodes=effort("fair-hint", "web").positions)
        assert plan.move is not None and wins == plan.wins
        assert f"({plan.move})" in text.split("Why?")[0]  # the move's notation, beside its sentence (labels on)


def test_hints_are_fair_by_default_and_peeking_is_labelled_when_chosen(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=3")
    page.click("#hint")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("Hint:", timeout=SLOW)
    expect(notice).to_have_attribute("data-peeks", "false")
    expect(notice).not_to_contain_text("Peeking")
    menu_click(page, "#settings-button")
    page.select_option("#setting-hintMode", "peek")
    page.select_option("#setting-pileLabels", "on")
    page.click("#settings-close")
    expect(page.locator("#hint")).to_have_text("Hint (peeking)")
    page.click("#hint")
    expect(notice).to_have_attribute("data-peeks", "true", timeout=SLOW)
    expect(notice).to_contain_text("Peeking: the solver looked at the face-down cards")
    notice.locator("summary").click()
    assert notice.inner_text().count("Peeking") == 1  # said once
    expect(notice).to_contain_text(re.compile(r"^Hint: Move the .*From the solver: it starts a winning line"))
    expect(notice).to_contain_text(re.compile(r"\((T\d|W|R|F\d)(:\d+)?>(T\d|F\d)\)"))  # pile labels: the notation
    expect(page.locator('[data-pile="tableau-1"]')).to_have_attribute("data-label", "T1")
    page.reload()  # remembered
    expect(page.locator("#hint")).to_have_text("Hint (peeking)")


def test_a_hint_for_a_build_names_every_card_of_it(player: Player) -> None:
    """King Albert deal 9: at the first position where a build of several cards is the only good move."""
    game = tableaux.new_game("king-albert", 9)
    for move in tableaux.solve("king-albert", 9).moves:
        if move.count >= 2:
            break
        game.play(move)
    else:
        pytest.fail("no build on the solver's line")
    hint = tableaux.hint(game, mode="peek")
    assert hint.move is not None and hint.move.count >= 2
    names = [c["card"] for c in game.public_position()["piles"][hint.move.source][-hint.move.count:]]
    page = player.open("?game=king-albert&deal=9")
    send_moves(page, game.moves_played)
    page.reload()
    page.evaluate("localStorage.setItem('tableaux.setting.hintMode', 'peek')")
    page.reload()
    page.click("#hint")
    words = [card_name(parse_card(code)) for code in names]
    expect(page.locator("#notice")).to_contain_text(f"Hint: Move the {words[0]}", timeout=SLOW)
    for word in words:
        expect(page.locator("#notice")).to_contain_text(word)
    expect(page.locator(".card.hint-source")).to_have_count(hint.move.count)


def lost_game(name: str, deal: int, seed: int) -> tableaux.Game:
    game = tableaux.new_game(name, deal)
    chooser = random.Random(seed)
    while not game.is_over() and not game.is_won() and len(game.moves_played) < 300:
        game.play(chooser.choice(game.legal_moves()))
    return game


def test_give_up_says_where_the_game_was_lost_and_goes_back_there_as_assisted(player: Player) -> None:
    game = lost_game("king-albert", 17, seed=3)
    where = fair.where_lost(game.to_dict())
    assert where is not None and where["move_index"] is not None
    n = where["move_index"] + 1
    losing = game.moves_played[where["move_index"]]
    before = tableaux.Game.replay(game.rules, 17, game.moves_played[:where["move_index"]]).public_position()
    cards = [card_name(parse_card(c["card"])) for c in before["piles"][losing.source][-losing.count:]]
    assert len(cards) == 1 and losing.source.startswith("tableau-") and losing.target.startswith("tableau-")
    page = player.open("?game=king-albert&deal=17")
    send_moves(page, game.moves_played)
    page.reload()
    page.wait_for_selector("[data-pile]")  # the game is loaded
    menu_click(page, "#give-up")
    page.click("#confirm-yes")
    expect(page.locator("#message")).to_contain_text("You gave this game up")
    # The cards and the piles in words: the pile labels (T7) are hidden by default.
    moved = (f"You could still have won until move {n}, when you moved the {cards[0]} from "
             f"tableau {losing.source[-1]} to tableau {losing.target[-1]}.")
    expect(page.locator("#where-lost")).to_contain_text(moved, timeout=SLOW)
    assert where["move"] not in page.locator("#where-lost").inner_text()
    # An unassisted game is warned of what going back costs it.
    expect(page.locator("#where-lost")).to_contain_text("Going back counts the game as assisted.")
    shot(page, "king-albert-where-lost-desktop")
    page.click("#lost-rewind")
    expect(page.locator("#moves")).to_have_text(str(n - 1))
    expect(page.locator("#message")).to_be_hidden()
    view = player.view()
    assert view["assisted"] and not view["given_up"] and view["moves"] == n - 1
    menu_click(page, "#stats-button")
    expect(page.locator("#stats-body tr", has_text="solver's help")).to_contain_text("1")


def test_giving_up_says_what_it_costs_a_loss_or_for_an_assisted_game_nothing(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    card(page, "AH", "reserve-5").dblclick()
    expect(page.locator("#moves")).to_have_text("1")
    menu_click(page, "#give-up")
    expect(page.locator("#confirm-dialog")).to_contain_text("It counts as lost")
    page.click("#confirm-no")
    # The peek must find the server's solver free: while the chance of the new position is still being counted
    # there, the server answers with its rule of thumb, which peeks at nothing.
    expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
    player.settle()
    view = player.view()
    hint = page.evaluate("(id) => fetch(`/api/games/${id}/hint`, {method: 'POST', headers: {'content-type': "
                         "'application/json'}, body: JSON.stringify({mode: 'peek'})}).then((r) => r.json())",
                         view["id"])
    assert hint["hint"]["peeks"], hint
    assert player.view()["assisted"]  # a peeking hint marks it
    page.reload()
    page.wait_for_selector("[data-pile]")
    menu_click(page, "#give-up")
    expect(page.locator("#confirm-dialog")).to_contain_text(
        "is counted separately, as a game played with the solver's help")
    expect(page.locator("#confirm-dialog")).not_to_contain_text("counts as lost")


def test_the_buttons_that_act_on_a_game_wait_for_it_to_load(player: Player) -> None:
    """Until the page has its game, Undo, Redo, Hint, Restart, Show solution and Give up are disabled, so that a
    press then is not lost without a word; once the game is there, they work at once."""
    page = player.page
    held: list[Any] = []
    page.route("**/api/resume*", lambda route: held.append(route))  # the load waits until the test lets it go
    with page.expect_request("**/api/resume*"):
        page.goto(player.base + "/?game=king-albert&deal=1")
    for button in ("undo", "redo", "hint", "restart", "solution", "give-up"):
        expect(page.locator(f"#{button}")).to_be_disabled()
    while not held:  # the route's handler runs while the page is asked something
        page.evaluate("0")
    held[0].continue_()
    menu_click(page, "#give-up")  # waits for the button, as a player's press would
    expect(page.locator("#confirm-dialog")).to_contain_text("It counts as lost")
    page.click("#confirm-no")
    expect(page.locator("#hint")).to_be_enabled()
    expect(page.locator("#undo")).to_be_disabled()  # no move yet


def test_a_game_given_up_right_after_its_losing_move_names_that_last_move(player: Player) -> None:
    from helpers.lost import lost_by_its_last_move

    game = lost_by_its_last_move("king-albert")
    n = len(game.moves_played)
    page = player.open(f"?game=king-albert&deal={game.deal}")
    send_moves(page, game.moves_played)
    page.reload()
    page.wait_for_selector("[data-pile]")  # the game is loaded
    menu_click(page, "#give-up")
    page.click("#confirm-yes")
    expect(page.locator("#where-lost")).to_contain_text(
        f"You could still have won until move {n}, when you ", timeout=SLOW)
    expect(page.locator("#lost-rewind")).to_have_text(f"Go back to before move {n}")
    page.click("#lost-rewind")
    expect(page.locator("#moves")).to_have_text(str(n - 1))
    assert player.view()["moves"] == n - 1


def test_a_won_game_from_winnable_only(player: Player) -> None:
    page = player.open("?game=king-albert&deal=1")
    page.select_option("#deal-kind", "easy")  # deals an easy deal at once
    page.click("#new-game")  # and so does New game, after it
    expect(page.locator("#grade")).to_contain_text("Winnable · Easy")
    player.settle()  # both new games made: the second is the one in play
    view = player.view()
    entry = catalogue.lookup("king-albert", view["deal"])
    assert entry is not None and entry.grade == "easy" and view["grade"] == "easy"
    line = tableaux.solve("king-albert", view["deal"]).moves
    win_by_hand(page, "king-albert", view["deal"], line)
    expect(page.locator("#message")).to_contain_text("You won")
    page.reload()
    expect(page.locator("#deal-kind")).to_have_value("easy")  # remembered


def test_a_graded_deal_shows_its_par_and_the_win_says_the_moves_beside_it(player: Player) -> None:
    pars = [e for e in catalogue.load("king-albert").winnable if e.par is not None]
    assert pars, "the shipped catalogue has no par yet: run python -m tableaux.catalogue par"
    entry = random.Random("par page").choice(pars)
    page = player.open(f"?game=king-albert&deal={entry.deal}")
    # The par says what it is to a pointer resting on it (and to a screen reader).
    expect(page.locator("#grade")).to_contain_text(f"Par {entry.par}")
    expect(page.locator("#grade-stat")).to_have_attribute(
        "title", re.compile(rf"Par {entry.par}: the fewest moves of a winning line the solver found, .*Show solution"))
    assert player.view()["par"] == entry.par
    line = tableaux.solve("king-albert", entry.deal).moves
    win_by_hand(page, "king-albert", entry.deal, line)
    expect(page.locator("#message")).to_contain_text(f"in {len(line)} moves (par {entry.par}) and ")
    expect(page.locator("#grade")).to_contain_text(f"Par {entry.par}")


def test_the_daily_deal_and_its_shareable_result(browser: Browser, server: Any) -> None:
    p = Player(browser, server.url, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = p.page
        before = utc_date()
        page.goto(server.url + "/daily?game=eagle-wing")
        page.wait_for_selector("[data-pile]")
        expect(page.locator("#grade")).to_contain_text("Daily deal ")
        after = utc_date()
        # the server's today: one of the two dates, which differ only across midnight UTC
        shown = page.locator("#grade").inner_text()
        day = next(d.isoformat() for d in (before, after) if f"Daily deal {d.isoformat()}" in shown)
        entry = catalogue.daily("eagle-wing", day)
        expect(page.locator("#deal-number")).to_have_text(str(entry.deal))
        expect(page).to_have_url(re.compile(r"/daily\?game=eagle-wing$"))
        line = tableaux.solve("eagle-wing", entry.deal).moves
        send_moves(page, line)
        page.reload()
        expect(page.locator("#message")).to_contain_text("You won")
        expect(page.locator("#message-new")).to_be_visible()
        expect(page.locator("#message-again")).to_have_count(0)  # a daily deal is played once
        share = page.locator("#share-text")
        expect(share).to_contain_text(f"Tableaux daily Eagle Wing, {day}: won in "
                                      f"{len(line)} moves")
        assert str(entry.deal) not in share.inner_text()  # it does not give the deal away
        page.click("#share-copy")
        expect(page.locator("#notice")).to_contain_text("copied")
        assert page.evaluate("navigator.clipboard.readText()") == share.inner_text()
        shot(page, "eagle-wing-daily-won-desktop")
        menu_click(page, "#stats-button")
        expect(page.locator("#stats-body tr", has_text="Daily deals won")).to_contain_text("1")
        expect(page.locator("#stats-body tr", has_text=re.compile(r"^Daily streak"))).to_contain_text("1")
        page.keyboard.press("Escape")
        page.goto(server.url + "/?game=king-albert&deal=1")  # the daily button of another game
        page.wait_for_selector("[data-pile]")
        menu_click(page, "#daily-button")
        expect(page.locator("#deal-number")).to_have_text(str(catalogue.daily("king-albert").deal))
    finally:
        p.close()


def test_a_position_that_cannot_be_won_says_so_and_what_the_chance_beside_it_counts(player: Player) -> None:
    # The chance still shown counts layouts of the cards not seen, some of which win: said, so that the two agree.
    game = lost_game("eagle-wing", 5, seed=1)
    page = player.open("?game=eagle-wing&deal=5")
    send_moves(page, game.moves_played[:-1])
    page.reload()
    show_solution(page)
    expect(page.locator("#notice")).to_contain_text("This position cannot be won", timeout=SLOW)
    expect(page.locator("#notice")).to_contain_text("counts the layouts of the cards you have not seen")
    expect(page.locator("#solution-bar")).to_be_hidden()


def test_a_new_player_sees_no_console_error(browser: Browser, server: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(server.url + "/")
        page.wait_for_selector("[data-pile]")
        expect(page.locator("#chance")).to_have_attribute("data-state", "done", timeout=SLOW)
        assert errors == []
    finally:
        context.close()


def test_the_trunk_is_a_closed_stack_with_its_count(player: Player) -> None:
    page = player.open("?game=eagle-wing&deal=3")
    trunk = pile(page, "reserve")
    expect(trunk.locator(".card")).to_have_count(1)
    expect(trunk.locator("[data-card]")).to_have_count(0)  # its face-up bottom card is not on view
    expect(trunk.locator(".badge")).to_have_text("13")

"""The input gate and the channel input, driven directly with what terminals send."""

import asyncio

from prompt_toolkit.keys import Keys

from frontends.limits import Limits
from frontends.ssh.metering import InputMeter, MeteredInput
from frontends.ssh.terminal import ChannelInput, InputGate


def keys_of(*packets: str) -> list[tuple[str, str]]:
    channel = ChannelInput()
    for packet in packets:
        channel.feed(packet)
    return [
        (k.key.value if isinstance(k.key, Keys) else k.key, k.data) for k in channel.flush_keys()
    ]


def test_enter_is_one_line_end_whatever_the_terminal_sends() -> None:
    gate = InputGate(line_length=100, backlog=10)
    assert gate.admit("bet 1 2-1\r\nbet 2 0-0\nbet 3 1-1\r") == (
        "bet 1 2-1\rbet 2 0-0\rbet 3 1-1\r",
        False,
    )
    assert gate.admit("x\r") == ("x\r", False)
    assert gate.admit("\nnext") == ("next", False)  # the other half of a \r\n split in two


def test_a_long_line_keeps_one_character_past_the_limit_and_no_more() -> None:
    gate = InputGate(line_length=10, backlog=10)
    kept = "".join(gate.admit("y" * 7)[0] for _ in range(1000))
    assert kept == "y" * 11
    assert gate.admit("\rok\r") == ("\rok\r", False)


def test_lines_past_the_backlog_are_dropped_and_said_once() -> None:
    gate = InputGate(line_length=100, backlog=3)
    passed, dropping = gate.admit("a\rb\rc\rd\re\r")
    assert (passed, dropping) == ("a\rb\rc\r", True)
    assert gate.admit("f\r") == ("", False)  # still full: dropped, not said again
    gate.line_read()
    assert gate.admit("g\r") == ("g\r", False)


def test_bracketed_paste_markers_are_read_as_typing() -> None:
    gate = InputGate(line_length=100, backlog=10)
    assert gate.admit("\x1b[200~say hi\rsay there\x1b[201~") == ("say hi\rsay there", False)


def test_a_pasted_run_is_one_key_and_typed_keys_stay_keys() -> None:
    assert keys_of("say hello world") == [(Keys.BracketedPaste.value, "say hello world")]
    assert [k for k, _ in keys_of("a", "b", "\r")] == ["a", "b", Keys.ControlM.value]
    arrows = keys_of("\x1b[Dhello\x1b[C")
    assert arrows == [
        (Keys.Left.value, "\x1b[D"),
        (Keys.BracketedPaste.value, "hello"),
        (Keys.Right.value, "\x1b[C"),
    ]


def test_a_sequence_split_across_packets_is_still_one_key() -> None:
    assert [k for k, _ in keys_of("bet 1 2-1\x1b[", "Dabcd")] == [
        Keys.BracketedPaste.value,
        Keys.Left.value,
        "a",
        "b",
        "c",
        "d",
    ]


def test_an_erase_gives_back_only_what_it_erases() -> None:
    """ "a" and Backspace, 500 times in one packet, used to give back two characters
    of room per erase before the characters were counted: the line never filled."""
    gate = InputGate(line_length=10, backlog=10, editing=True)
    assert gate.admit("abc\x7f\x7f\x7f\x7f\x7fdef") == ("abc\x7f\x7f\x7fdef", False)
    assert gate.typed == 3  # the erases past the start of the line were dropped
    gate = InputGate(line_length=10, backlog=10, editing=True)
    passed, _ = gate.admit("a\x7f" * 500 + "b" * 20)
    assert passed == "a\x7f" * 500 + "b" * 11 and gate.typed == 11
    # After Home, an erase takes back nothing the gate counted: the line stays full.
    gate = InputGate(line_length=10, backlog=10, editing=True)
    passed, _ = gate.admit("abcdefghij\x1b[H" + "\x7f" * 20 + "xyz")
    assert passed == "abcdefghij\x1b[H" + "\x7f" * 20 + "x" and gate.typed == 11


def test_a_flood_of_bare_line_ends_past_the_backlog_is_dropped_whole() -> None:
    gate = InputGate(line_length=100, backlog=3)
    assert gate.admit("\n" * 100_000) == ("\r\r\r", True)
    assert (gate.waiting, gate.skipping, gate.full) == (3, False, True)
    assert gate.admit("half a line") == ("", False)
    assert gate.skipping  # its end is dropped with it, even once a line is read
    gate.line_read()
    assert gate.admit(" ends here\rnext\r") == ("next\r", False)


class Channel:
    """A channel's reading, as asyncssh's pause_reading and resume_reading turn it."""

    def __init__(self) -> None:
        self.paused = False
        self.pauses = 0

    def pause_reading(self) -> None:
        self.paused, self.pauses = True, self.pauses + 1

    def resume_reading(self) -> None:
        self.paused = False


def test_keys_pass_at_the_connections_budget_and_none_is_lost() -> None:
    """1,000 keys in one packet reach the prompt 300 at once, then 100 a second; the
    channel is not read meanwhile, and everything arrives in order."""
    limits = Limits(input_keys_per_second=100.0, input_keys_burst=300)

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        meter = InputMeter(limits, clock=loop.time)
        delivered: list[tuple[float, str]] = []
        started = loop.time()

        def deliver(text: str) -> str:
            delivered.append((loop.time() - started, text))
            return text

        channel, flood = Channel(), "a\x7f" * 500
        metered = MeteredInput(meter, deliver, lambda: True)
        metered.receive(channel, flood)
        assert channel.paused and "".join(t for _, t in delivered) == flood[:300]
        ended: list[float] = []
        metered.end(lambda: ended.append(loop.time() - started))
        async with asyncio.timeout(15):
            while not ended:
                await asyncio.sleep(0.05)
        assert "".join(t for _, t in delivered) == flood and not channel.paused
        assert 6.5 <= ended[0] <= 9  # (1,000 - 300) keys at 100 a second
        for at, _ in delivered[1:]:  # never ahead of the budget
            assert sum(len(t) for a, t in delivered if a <= at) <= 300 + 100 * at + 1
        assert meter.let_through == 1000

    asyncio.run(scenario())


def test_a_paste_is_one_key_and_what_the_gate_drops_is_not_charged() -> None:
    limits = Limits(input_keys_per_second=10.0, input_keys_burst=20)

    async def scenario() -> None:
        meter = InputMeter(limits, clock=asyncio.get_running_loop().time)
        gate = InputGate(line_length=1000, backlog=3)
        passed: list[str] = []

        def deliver(text: str) -> str:
            kept, _ = gate.admit(text)
            passed.append(kept)
            return kept

        channel = Channel()
        metered = MeteredInput(meter, deliver, lambda: not gate.full)
        metered.receive(channel, "say " + "x" * 100_000)  # a paste: one key
        metered.receive(channel, "\r" + "spam spam\r" * 10_000)  # lines past the backlog
        assert not channel.paused and metered.waiting == ""
        assert "".join(passed) == "say " + "x" * 997 + "\r" + "spam spam\r" * 2
        assert meter.let_through == 6  # the paste, its Enter, two lines of two keys each

    asyncio.run(scenario())


def test_control_characters_count_toward_the_line_at_a_prompt_and_without_one() -> None:
    """A review found 100,000 control characters passing a full line: they did not count."""
    for editing in (True, False):
        gate = InputGate(line_length=10, backlog=10, editing=editing)
        passed, _ = gate.admit("x" * 10 + "\x01\x85" * 50_000)
        assert len(passed) == 11 and gate.typed == 11, editing
    # Without a prompt nothing edits the line: an erase is one more character of it.
    gate = InputGate(line_length=10, backlog=10)
    passed, _ = gate.admit("a\x7f" * 500)
    assert passed == ("a\x7f" * 500)[:11] and gate.typed == 11


def test_a_full_line_stops_the_reading_of_the_rest_at_a_prompt() -> None:
    gate = InputGate(line_length=10, backlog=10, editing=True)
    passed, _ = gate.admit("y" * 11 + "\x1b[D" + "\x01" * 100_000 + "\x7f" * 10)
    assert passed == "y" * 11 + "\x1b[D" and gate.typed == 11  # a key is never cut

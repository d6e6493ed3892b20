"""The input gate and the channel input, driven directly with what terminals send."""

from prompt_toolkit.keys import Keys

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

"""collector_paused turns Python's cyclic collector off for a stage and restores it."""
import gc

from minicuda.grammar.collector import collector_paused


def test_collector_is_off_inside_and_back_on_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_collector_left_off_when_the_caller_turned_it_off():
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_collector_back_on_after_an_exception():
    try:
        with collector_paused():
            raise ValueError
    except ValueError:
        pass
    assert gc.isenabled()

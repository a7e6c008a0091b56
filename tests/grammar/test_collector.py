"""collector_paused turns Python's cyclic collector off for a stage and restores it."""
import gc

from minicuda.grammar.collector import LARGE_STAGE, collector_paused


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


def test_a_large_stage_ends_with_a_collection_of_the_young_generations():
    collections = []
    gc.callbacks.append(lambda phase, info: collections.append(info["generation"]) if phase == "start" else None)
    try:
        with collector_paused():
            kept = [[] for _ in range(LARGE_STAGE + 1000)]
        assert 1 in collections and 2 not in collections
        collections.clear()
        with collector_paused():
            kept.append([[] for _ in range(100)])
        assert not collections
    finally:
        gc.callbacks.pop()

"""ctest toy.plugin_python: the Python package of this build, unchanged, with the toy engine loaded
as a plugin (TMU_ENGINE_PLUGINS set by the test). Expected values are worked by hand from the toy's
definition (toy_engine.cpp): four u8 lanes, a + b saturating at 255 ("sat") or wrapping ("wrap")."""

import numpy as np

import tmu


def test_the_plugin_is_registered():
    toy = [e for e in tmu.engines() if e["name"] == "toy"]
    assert len(toy) == 1
    assert toy[0]["variants"] == ["sat", "wrap"]


def test_a_program_runs_in_each_variant():
    program = "a 200 1 255 0\nb 100 2 1 0\nadd\n"
    # 200 + 100 = 300 -> 255 saturating, 300 - 256 = 44 wrapping; 255 + 1 -> 255 or 0.
    assert tmu.engine("toy").run(program)["c"] == "255 3 255 0"
    assert tmu.engine("toy", variant="WRAP").run(program)["c"] == "44 3 0 0"


def test_vectors_replay_through_check(tmp_path):
    files = tmu.engine("toy").vectors(random=3, seed=7, out=str(tmp_path))
    assert list(files) == ["toy/sat.tmv"]
    result = tmu.engine("toy").check(str(tmp_path))
    # 16 level-1 pairs of the edges 0, 1, 128, 255 and 3 random vectors.
    assert (result["vectors"], result["failed"]) == (19, 0)


def test_the_scoreboard_reports_a_wrong_lane():
    sb = tmu.engine("toy").scoreboard()
    sb.load("a", np.array([0x01FF80C8], dtype=np.uint32))  # lanes, low byte first: 200 128 255 1
    sb.load("b", np.array([0x02010064], dtype=np.uint32))  # 100 0 1 2
    sb.execute("add")
    assert sb.read("c").tolist() == [0x03FF80FF]           # 255 128 255 3
    design = np.array([0x03FF802C], dtype=np.uint32)       # lane 0 wrapped: 44
    assert sb.compare("c", design) == ["c lane 0: design 44, model 255 (add)"]

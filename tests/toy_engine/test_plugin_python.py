"""ctest toy.plugin_python: the Python package of this build, unchanged, with the toy engine loaded
as a plugin (TMU_ENGINE_PLUGINS set by the test). Expected values are worked by hand from the toy's
definition (toy_engine.cpp): four u8 lanes, a + b saturating at 255 ("sat") or wrapping ("wrap")."""

import numpy as np

import tmu


def test_the_plugin_is_registered():
    toy = [e for e in tmu.engines() if e["name"] == "toy"]
    assert len(toy) == 1
    assert [v["name"] for v in toy[0]["variants"]] == ["sat", "wrap"]

// The host side of the co-simulation session (tb/dpi/tmu_dpi.cpp): the simulator's main program opens
// the session before the model runs; the SystemVerilog top then finds it with tmu_drv_current().
#pragma once

#include <string>

#include "driver/driver.h"

// Creates the scoreboard and the driver for one test and makes it the current session. tmu_command
// is how the report names the tmu tool (ScoreboardOptions::tmu_command).
void* tmu_tb_open(const tmu::tb::DriverOptions& options, const std::string& replay_command,
                  const std::string& replay_dir, const std::string& tmu_command = "tmu");
tmu::tb::Driver* tmu_tb_driver(void* h);  // null for a bad handle
// Why the last refused DPI call of the session failed (what the SystemVerilog side printed before it
// stopped the run), "" when none was refused.
std::string tmu_tb_last_error(void* h);
void tmu_tb_close(void* h);

// Where teg finds its data files (the device database under data/devices/).
#pragma once

#include <string>

namespace teg {

// $TEG_DATA_DIR if set, else the directory configured at build time.
std::string dataDirectory();

}  // namespace teg

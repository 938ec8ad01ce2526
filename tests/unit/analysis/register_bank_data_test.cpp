// The register-bank layout lives in two data files read by two mechanisms: the timing engine's
// SASS path reads timing.register_banks / timing.register_bank_reads from the device figures
// (data/devices/generic/sm_*.json), `teg bound` reads data/sass/register_banks.json (which adds the
// per-read penalty and the list of generations with no published layout). They must say the same
// thing about every architecture, or the bound and the prediction would model different hardware.
#include <gtest/gtest.h>

#include "teg/device/database.hpp"
#include "teg/sass/register_banks.hpp"

using namespace teg;

TEST(RegisterBankData, TheEngineAndTheBoundReadTheSameLayoutForEveryGeneration) {
  const auto db = device::DeviceDatabase::loadDirectory(TEG_SOURCE_DIR "/data/devices");
  int published = 0, generics = 0;
  for (const auto& d : db.all()) {
    if (!d.generic || d.cc.major < 7) continue;  // SASS is read for cc >= 7.0 only
    ++generics;
    const std::string arch = d.cc.smName();
    std::string why;
    const auto layout = sass::registerBankLayout(arch, &why);
    SCOPED_TRACE(arch + ": " + why);
    if (layout) {
      ++published;
      EXPECT_EQ(static_cast<int>(d.timing.registerBanks), layout->banks);
      EXPECT_EQ(static_cast<int>(d.timing.registerBankReads), layout->readsPerBank);
    } else {
      EXPECT_EQ(d.timing.registerBanks, 0) << "the engine models banks the bound calls unpublished";
    }
  }
  EXPECT_GE(generics, 10);
  EXPECT_GE(published, 2);  // sm_70 (Jia 2018) and sm_75 (RTX 2070 measurement)
}

// Loading the real database (data/devices/) and looking devices up by every name form.
#include <gtest/gtest.h>

#include "teg/device/database.hpp"
#include "teg/support/error.hpp"

namespace {

using teg::device::DeviceDatabase;

const DeviceDatabase& realDatabase() {
  static const DeviceDatabase db = DeviceDatabase::loadDirectory(TEG_SOURCE_DIR "/data/devices");
  return db;
}

TEST(DeviceDatabaseLoad, LoadsTheRealDatabase) {
  const auto& db = realDatabase();
  EXPECT_GE(db.all().size(), 29u);
  // Products first, generic entries last.
  bool seenGeneric = false;
  for (const auto& d : db.all()) {
    if (d.generic) seenGeneric = true;
    EXPECT_FALSE(seenGeneric && !d.generic) << d.id << " (a product) after a generic entry";
  }
}

TEST(DeviceDatabaseLoad, FindsGenericEntriesByEveryForm) {
  const auto& db = realDatabase();
  for (const char* name : {"sm_80", "SM_80", "sm80", "8.0", "compute_80", "Sm-80"}) {
    const auto* d = db.tryFind(name);
    ASSERT_NE(d, nullptr) << name;
    EXPECT_EQ(d->id, "sm_80") << name;
  }
  EXPECT_EQ(db.find("2.0").id, "sm_20");
  EXPECT_EQ(db.find("sm_120").id, "sm_120");
  EXPECT_EQ(db.find("12.0").id, "sm_120");
  EXPECT_EQ(db.find("1.2").id, "sm_12");
}

// Issue 2 lists the GPUs the database must hold; each must be found by the short name people use,
// in any case and spacing, with or without the brand words.
TEST(DeviceDatabaseLoad, FindsEveryRequiredProductByItsShortName) {
  const auto& db = realDatabase();
  struct Case {
    const char* query;
    const char* cc;
  };
  for (const Case& c : {Case{"GTX 280", "1.3"}, Case{"c1060", "1.3"}, Case{"gtx480", "2.0"}, Case{"GTX580", "2.0"},
                        Case{"Tesla C2050", "2.0"}, Case{"gtx680", "3.0"}, Case{"K20X", "3.5"}, Case{"gtx 980", "5.2"},
                        Case{"p100", "6.0"}, Case{"GTX1080", "6.1"}, Case{"v100", "7.0"}, Case{"t4", "7.5"},
                        Case{"RTX 2080 Ti", "7.5"}, Case{"A100", "8.0"}, Case{"a10", "8.6"}, Case{"rtx3090", "8.6"},
                        Case{"L4", "8.9"}, Case{"NVIDIA GeForce RTX 4090", "8.9"}, Case{"h100 sxm", "9.0"},
                        Case{"H100 PCIe", "9.0"}, Case{"h200", "9.0"}, Case{"B200", "10.0"}, Case{"rtx 5090", "12.0"}}) {
    const auto* d = db.tryFind(c.query);
    ASSERT_NE(d, nullptr) << c.query;
    EXPECT_FALSE(d->generic) << c.query;
    EXPECT_EQ(d->cc.str(), c.cc) << c.query;
  }
  // "h100 sxm" and "h100 pcie" are different boards.
  EXPECT_NE(db.find("h100 sxm").id, db.find("h100 pcie").id);
}

TEST(DeviceDatabaseLoad, UnknownNameListsCloseMatches) {
  const auto& db = realDatabase();
  EXPECT_EQ(db.tryFind("sm_81"), nullptr);
  try {
    (void)db.find("sm_81");
    FAIL() << "expected an error";
  } catch (const teg::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("unknown GPU 'sm_81'"), std::string::npos) << what;
    EXPECT_NE(what.find("did you mean"), std::string::npos) << what;
    EXPECT_NE(what.find("sm_80"), std::string::npos) << what;
  }
}

}  // namespace

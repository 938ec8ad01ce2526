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

// The MuseumFeature module.

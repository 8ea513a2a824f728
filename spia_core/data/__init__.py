"""The data layer: readers of the shipped reference data (:mod:`spia_core.data.published`, the
paper's Tables 4 and 9). Where the files live is :mod:`spia_core.paths`."""

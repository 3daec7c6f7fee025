"""The learning-rate schedule (run: /usr/bin/python3 -m unittest discover -s train -p 'test_*.py')."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))


class Schedule(unittest.TestCase):
    def test_a_short_run_warms_up_for_a_tenth_of_it_then_decays(self):
        from askgraph_train import WARM_SHARE, lr_factor
        # init's 10-minute fine-tuning of the base: ~400 steps with --warmup 300; before, 300 of them were warm-up
        total = 400
        rates = [lr_factor(s, s / total, 300) for s in range(total)]
        peak = max(range(total), key=lambda s: rates[s])
        self.assertLessEqual(peak, int(WARM_SHARE * total) + 1)
        self.assertAlmostEqual(rates[peak], 1.0, delta=0.03)
        self.assertLess(rates[-1], 0.05)  # the run ends near the floor, not at its peak rate
        self.assertTrue(all(b <= a + 1e-12 for a, b in zip(rates[peak:], rates[peak + 1:])))

    def test_a_long_run_keeps_its_warm_up_steps(self):
        from askgraph_train import lr_factor
        total = 10000
        self.assertAlmostEqual(lr_factor(149, 149 / total, 300), 0.5)
        self.assertAlmostEqual(lr_factor(299, 299 / total, 300), 1.0)
        self.assertGreater(lr_factor(300, 300 / total, 300), 0.99)

    def test_a_time_budget_ends_the_warm_up_as_well(self):
        from askgraph_train import lr_factor
        # progress by time (--minutes): a slow machine that reaches a tenth of its budget by step 20
        self.assertAlmostEqual(lr_factor(20, 0.1, 300), lr_factor(1000, 0.1, 300))
        self.assertAlmostEqual(lr_factor(5, 0.05, 300), 0.5)


class Device(unittest.TestCase):
    def test_auto_falls_back_to_the_cpu_and_cuda_without_one_is_refused(self):
        import torch
        from askgraph_train import train_device
        self.assertEqual(train_device("cpu").type, "cpu")
        self.assertEqual(train_device("auto").type, "cuda" if torch.cuda.is_available() else "cpu")
        if not torch.cuda.is_available():
            with self.assertRaises(SystemExit) as e:
                train_device("cuda")
            self.assertIn("no CUDA device", str(e.exception))


if __name__ == "__main__":
    unittest.main()

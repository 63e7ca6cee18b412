package dev.saccade.cli;

import java.awt.BorderLayout;
import java.awt.GridLayout;
import javax.swing.JComboBox;
import javax.swing.JFrame;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTable;
import javax.swing.JTree;
import javax.swing.SwingUtilities;
import javax.swing.tree.DefaultMutableTreeNode;
import javax.swing.tree.TreePath;

/**
 * A small Swing application for {@link SwingDesktopTest}, run in its own JVM with the ATK
 * wrapper: a combo box, a table and a tree; it prints each choice and each edit to stdout, one
 * line each, so the test reads what the user did from the application.
 */
public final class SwingChooserApp {
    static final String TITLE = "Saccade Swing chooser";

    private SwingChooserApp() {
    }

    /** @param args optionally the number of rows to add to the table's three (a larger tree to read) */
    public static void main(final String[] args) {
        final int more = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        SwingUtilities.invokeLater(() -> show(more));
    }

    private static void show(final int moreRows) {
        final JFrame frame = new JFrame(TITLE);
        frame.setDefaultCloseOperation(JFrame.EXIT_ON_CLOSE);
        final JComboBox<String> fruit = new JComboBox<>(new String[] {"Apple", "Banana", "Cherry", "Damson"});
        fruit.addActionListener(e -> say("combo " + fruit.getSelectedItem()));
        final Object[][] rows = new Object[3 + moreRows][];
        rows[0] = new Object[] {"Ada", "London"};
        rows[1] = new Object[] {"Grace", "New York"};
        rows[2] = new Object[] {"Linus", "Helsinki"};
        for (int i = 0; i < moreRows; i++) {
            rows[3 + i] = new Object[] {"Person " + i, "City " + i};
        }
        final JTable table = new JTable(rows, new Object[] {"Name", "City"});
        table.getModel().addTableModelListener(e -> say("table " + e.getFirstRow() + "," + e.getColumn() + " "
            + table.getModel().getValueAt(e.getFirstRow(), e.getColumn())));
        table.getSelectionModel().addListSelectionListener(e -> {
            if (!e.getValueIsAdjusting() && table.getSelectedRow() >= 0) {
                say("row " + table.getValueAt(table.getSelectedRow(), 0));
            }
        });
        final DefaultMutableTreeNode root = new DefaultMutableTreeNode("Fruit");
        final DefaultMutableTreeNode citrus = new DefaultMutableTreeNode("Citrus");
        citrus.add(new DefaultMutableTreeNode("Lemon"));
        citrus.add(new DefaultMutableTreeNode("Orange"));
        root.add(citrus);
        root.add(new DefaultMutableTreeNode("Berries"));
        final JTree tree = new JTree(root);
        tree.expandPath(new TreePath(citrus.getPath()));
        tree.addTreeSelectionListener(e -> say("tree " + e.getPath().getLastPathComponent()));
        final JPanel top = new JPanel(new BorderLayout());
        top.add(fruit, BorderLayout.NORTH);
        final JPanel lists = new JPanel(new GridLayout(1, 2));
        lists.add(new JScrollPane(table));
        lists.add(new JScrollPane(tree));
        top.add(lists, BorderLayout.CENTER);
        frame.setContentPane(top);
        frame.setSize(520, 320);
        frame.setLocation(40, 40);
        frame.setVisible(true);
        say("ready");
    }

    private static void say(final String line) {
        System.out.println(line);
        System.out.flush();
    }
}
